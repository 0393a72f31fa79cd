import type { Kysely } from 'kysely';
import { requireAdminMember, requireMember } from '../../auth/access.js';
import { NotFoundError } from '../../errors.js';
import { findDatasetById } from '../../storage/repositories/datasets.repository.js';
import { listMetadataProperties, listQuestions } from '../../storage/repositories/dataset-settings.repository.js';
import {
  countDatasetRecords,
  findRecordRowById,
  listDatasetRecordsPage,
  listSuggestionAgents,
} from '../../storage/repositories/records-query.repository.js';
import type { Tables, UserRow } from '../../storage/tables.js';
import { getDatasetOrThrow } from '../datasets/dataset-lookup.js';
import { canSeeQuestion } from '../questions/questions.policy.js';
import { loadRecordRelations } from './load-record-relations.js';
import { INCLUDE_EVERYTHING, type RecordInclude } from './record-include.js';
import { presentRecord, type RecordJson } from './record.presenter.js';
import { recordVisibilityFor, responsesReadableBy } from './record-visibility.js';

type Db = Kysely<Tables>;

export interface RecordsPage {
  offset: number;
  limit: number;
  include: RecordInclude;
}

/**
 * `GET /datasets/{id}/records` (contract §2.9): admin members and owners; insertion order;
 * relationships only when included; `total` = every record of the dataset.
 */
export async function listDatasetRecords(db: Db, user: UserRow, datasetId: string, page: RecordsPage) {
  const dataset = await getDatasetOrThrow(db, datasetId);
  await requireAdminMember(db, user, dataset.workspace_id);
  const rows = await listDatasetRecordsPage(db, dataset.id, page.offset, page.limit);
  const total = await countDatasetRecords(db, dataset.id);
  const relations = await loadRecordRelations(db, rows, page.include, { validation: true });
  return { items: rows.map((row) => presentRecord(row, relations.get(row.id))), total };
}

/**
 * `GET /records/{id}`: any member; responses, suggestions and vectors always. Annotators get the
 * view `/me` search gives them: their own response only, no hidden metadata or questions.
 */
export async function getRecord(db: Db, user: UserRow, recordId: string): Promise<RecordJson> {
  const row = await findRecordRowById(db, recordId);
  if (!row) throw new NotFoundError(`Record with id \`${recordId}\` not found`);
  const dataset = await findDatasetById(db, row.dataset_id);
  if (!dataset) throw new NotFoundError(`Record with id \`${recordId}\` not found`);
  await requireMember(db, user, dataset.workspace_id);
  const relations = await loadRecordRelations(db, [row], INCLUDE_EVERYTHING, {
    validation: user.role !== 'annotator',
    responsesOfUserId: responsesReadableBy(user),
  });
  const [questions, metadataProperties] = await Promise.all([listQuestions(db, dataset.id), listMetadataProperties(db, dataset.id)]);
  const visibility = recordVisibilityFor(user, { questions, metadataProperties });
  return presentRecord(row, relations.get(row.id), { visibility });
}

/**
 * `GET /datasets/{id}/records/search/suggestions/options`: one item per question the caller may
 * see, in creation order, with the distinct non-null agents of its suggestions (`[]` when none).
 */
export async function listSuggestionOptions(db: Db, user: UserRow, datasetId: string) {
  const dataset = await getDatasetOrThrow(db, datasetId);
  await requireMember(db, user, dataset.workspace_id);
  const questions = (await listQuestions(db, dataset.id)).filter((q) => canSeeQuestion(user, q));
  const agents = new Map<string, string[]>(questions.map((q) => [q.id, []]));
  for (const row of await listSuggestionAgents(db, dataset.id)) agents.get(row.question_id)?.push(row.agent);
  return {
    items: questions.map((q) => ({ question: { id: q.id, name: q.name }, agents: agents.get(q.id) ?? [] })),
  };
}
