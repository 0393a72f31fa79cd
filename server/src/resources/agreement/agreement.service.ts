import type { Kysely } from 'kysely';
import { requireAdminMember } from '../../auth/access.js';
import { computeDatasetAgreement, measuresType, type AgreementQuestion, type AnnotatorAgreement } from '../../lib/agreement/dataset-agreement.js';
import { fromJson } from '../../storage/json.js';
import { findUsernames } from '../../storage/repositories/agreement.repository.js';
import { listFields, listMetadataProperties, listQuestions, listVectorSettings } from '../../storage/repositories/dataset-settings.repository.js';
import { listMatchingRids } from '../../storage/repositories/search.repository.js';
import type { DatasetRow, QuestionRow, Tables, UserRow } from '../../storage/tables.js';
import { getDatasetOrThrow } from '../datasets/dataset-lookup.js';
import { submittedAnswers, type KeptAnswers } from './answer-cache.js';
import { resolveFilters } from '../search/search-request.js';
import { withListProbes } from '../search/search.service.js';
import type { SearchBody } from '@scholia/shared/contract';

type Db = Kysely<Tables>;

const agreementQuestion = (q: QuestionRow): AgreementQuestion => {
  const settings = fromJson<{ type: string; options?: { value: unknown }[] }>(q.settings);
  return { id: q.id, name: q.name, type: settings.type, options: (settings.options ?? []).map((o) => o.value) };
};

/**
 * `GET /datasets/{id}/agreement` (Scholia extension): owners and admin members, as it compares
 * every annotator's answers. Search filters narrow the records as on the admin search route.
 */
export async function datasetAgreement(db: Db, user: UserRow, datasetId: string, body: SearchBody) {
  const dataset = await getDatasetOrThrow(db, datasetId);
  await requireAdminMember(db, user, dataset.workspace_id);
  const questions = await listQuestions(db, dataset.id);
  const rids = body.filters ? await matchingRids(db, dataset, questions, body) : undefined;
  const measured = questions.map(agreementQuestion).filter((q) => measuresType(q.type));
  const answers = await submittedAnswers(db, dataset.id, measured);
  const result = computeDatasetAgreement(answers.table, rids && (await amongRids(answers, rids)));
  const usernames = await findUsernames(db, result.annotators.map((a) => a.user_id));
  // Rows come in no set order: annotators are listed by username.
  const named = (list: AnnotatorAgreement[]) =>
    list.map((a) => ({ ...a, username: usernames.get(a.user_id) ?? null })).sort((a, b) => (a.username ?? '').localeCompare(b.username ?? ''));
  return {
    questions: result.questions.map((q) => ({ ...q, annotators: named(q.annotators) })),
    annotators: named(result.annotators),
  };
}

/** Whether a record of the answers (by its number in the table) is one of `rids`. */
async function amongRids(answers: KeptAnswers, rids: ReadonlySet<number>): Promise<(record: number) => boolean> {
  const ridOf = await answers.recordRids();
  return (record) => rids.has(ridOf[record]);
}

async function matchingRids(db: Db, dataset: DatasetRow, questions: QuestionRow[], body: SearchBody): Promise<Set<number>> {
  const [fields, metadataProperties, vectorSettings] = await Promise.all([
    listFields(db, dataset.id),
    listMetadataProperties(db, dataset.id),
    listVectorSettings(db, dataset.id),
  ]);
  const settings = { dataset, fields, questions, metadataProperties, vectorSettings };
  const filters = await withListProbes(db, dataset.id, resolveFilters(body, settings, { seesValidation: true }));
  return new Set(await listMatchingRids(db, { datasetId: dataset.id, filters, sort: [] }));
}
