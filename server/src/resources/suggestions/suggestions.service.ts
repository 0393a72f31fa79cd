import type { Kysely } from 'kysely';
import type { SuggestionCreate } from '@scholia/shared/contract';
import { NotFoundError, RequestValidationError, UnprocessableError } from '../../errors.js';
import { nowTimestamp } from '../../lib/time.js';
import type { Database } from '../../storage/dialect.js';
import { fromJson, toJson } from '../../storage/json.js';
import { listQuestions } from '../../storage/repositories/dataset-settings.repository.js';
import { findRecordById, type StoredRecord } from '../../storage/repositories/records.repository.js';
import {
  deleteSuggestion,
  deleteSuggestionsOfRecordByIds,
  findSuggestionById,
  findSuggestionOfQuestion,
  insertSuggestion,
  listSuggestionsOfRecord,
  updateSuggestion,
} from '../../storage/repositories/suggestions.repository.js';
import type { DatasetRow, SuggestionRow, Tables, UserRow } from '../../storage/tables.js';
import { getDatasetOrThrow } from '../datasets/dataset-lookup.js';
import { hiddenQuestionsFor, visibleSuggestions } from '../records/record-visibility.js';
import { recordPolicy } from '../records/records.policy.js';
import { parseIdList, suggestionRow } from '../records/records.service.js';
import { questionForCheck } from '../responses/validate-response.js';
import { validateSuggestion } from './validate-suggestion.js';

type Db = Kysely<Tables>;

/** Contract §6.4. */
export const DELETE_SUGGESTIONS_MAX = 100;

async function loadRecordAndDataset(db: Db, recordId: string): Promise<{ record: StoredRecord; dataset: DatasetRow }> {
  const record = await findRecordById(db, recordId);
  if (!record) throw new NotFoundError(`Record with id \`${recordId}\` not found`);
  return { record, dataset: await getDatasetOrThrow(db, record.dataset_id) };
}

/** `GET /records/{id}/suggestions`: any member; those of questions hidden from the caller are left out. */
export async function listRecordSuggestions(database: Database, user: UserRow, recordId: string): Promise<SuggestionRow[]> {
  const { db } = database;
  const { record, dataset } = await loadRecordAndDataset(db, recordId);
  await recordPolicy.read(db, user, dataset);
  const hidden = hiddenQuestionsFor(user, await listQuestions(db, dataset.id));
  return visibleSuggestions(await listSuggestionsOfRecord(db, record.id), hidden);
}

/** `PUT /records/{id}/suggestions`: creates (201) or replaces (200) the record's suggestion for a question. */
export async function upsertRecordSuggestion(
  database: Database,
  user: UserRow,
  recordId: string,
  body: SuggestionCreate,
): Promise<{ created: boolean; suggestion: SuggestionRow }> {
  const { db } = database;
  const { record, dataset } = await loadRecordAndDataset(db, recordId);
  await recordPolicy.write(db, user, dataset);
  const question = (await listQuestions(db, dataset.id)).find((q) => q.id === body.question_id);
  if (!question) throw new UnprocessableError(`Question with id \`${body.question_id}\` not found`);
  const checked = validateSuggestion(body, questionForCheck(question), fromJson(record.fields));
  const existing = await findSuggestionOfQuestion(db, record.id, question.id);
  if (existing) {
    const changes = {
      type: checked.type,
      value: toJson(checked.value),
      agent: checked.agent,
      score: checked.score === null ? null : toJson(checked.score),
      updated_at: nowTimestamp(),
    };
    await updateSuggestion(db, existing.id, changes);
    return { created: false, suggestion: { ...existing, ...changes } };
  }
  const row = suggestionRow(record.id, dataset.id, checked);
  await insertSuggestion(db, row);
  return { created: true, suggestion: row };
}

/** `DELETE /records/{id}/suggestions?ids=`: ids of other records are ignored. */
export async function deleteRecordSuggestions(database: Database, user: UserRow, recordId: string, rawIds: string | undefined): Promise<void> {
  if (rawIds === undefined) throw new RequestValidationError([{ type: 'missing', loc: ['query', 'ids'], msg: 'Field required' }]);
  const ids = parseIdList(rawIds);
  const { db } = database;
  const { record, dataset } = await loadRecordAndDataset(db, recordId);
  await recordPolicy.write(db, user, dataset);
  if (ids.length === 0) throw new UnprocessableError('No suggestions IDs provided');
  if (ids.length > DELETE_SUGGESTIONS_MAX) {
    throw new UnprocessableError(`Cannot delete more than ${DELETE_SUGGESTIONS_MAX} suggestions at once`);
  }
  await deleteSuggestionsOfRecordByIds(db, record.id, ids);
}

/** `DELETE /suggestions/{id}`: 200 with the deleted suggestion. */
export async function deleteSuggestionById(database: Database, user: UserRow, suggestionId: string): Promise<SuggestionRow> {
  const { db } = database;
  const suggestion = await findSuggestionById(db, suggestionId);
  if (!suggestion) throw new NotFoundError(`Suggestion with id \`${suggestionId}\` not found`);
  const { dataset } = await loadRecordAndDataset(db, suggestion.record_id);
  await recordPolicy.write(db, user, dataset);
  await deleteSuggestion(db, suggestion.id);
  return suggestion;
}
