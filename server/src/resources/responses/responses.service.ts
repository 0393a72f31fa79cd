import type { Kysely } from 'kysely';
import type { ResponseBody, ResponseUpsertItem } from '@scholia/shared/contract';
import { requireAdminMember, requireMember } from '../../auth/access.js';
import { ConflictError, DomainError, NotFoundError, RequestValidationError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { nowTimestamp } from '../../lib/time.js';
import type { Database } from '../../storage/dialect.js';
import { fromJson, toJson } from '../../storage/json.js';
import { listQuestions } from '../../storage/repositories/dataset-settings.repository.js';
import { findRecordById, touchDatasetActivity, type StoredRecord } from '../../storage/repositories/records.repository.js';
import {
  deleteResponse as deleteResponseRow,
  findResponseById,
  findResponseOfUser,
  insertCountedResponse,
  updateResponse as updateResponseRow,
} from '../../storage/repositories/responses.repository.js';
import type { DatasetRow, ResponseRow, Tables, UserRow } from '../../storage/tables.js';
import { getDatasetForUserOrThrow, getDatasetOrThrow } from '../datasets/dataset-lookup.js';
import { minSubmitted, refreshRecordStatuses } from '../records/record-status.js';
import { hiddenQuestionsFor, type HiddenQuestions } from '../records/record-visibility.js';
import { presentResponse, type ResponseJson } from './response.presenter.js';
import { questionForCheck, validateResponse, type QuestionForCheck } from './validate-response.js';
import { withResponseSetStep } from '../../storage/repositories/agreement.repository.js';
import { applyResponseChange, keepsAnswersOf } from '../agreement/answer-cache.js';
import { datasetEventData, recordEventData, responseEventData } from '../../webhooks/webhook-payloads.js';
import { enabledWebhooks, raiseWebhookEvents } from '../../webhooks/webhook-events.js';

type Db = Kysely<Tables>;

async function getRecordOrThrow(db: Db, id: string): Promise<StoredRecord> {
  const record = await findRecordById(db, id);
  if (!record) throw new NotFoundError(`Record with id \`${id}\` not found`);
  return record;
}

async function getResponseOrThrow(db: Db, id: string): Promise<ResponseRow> {
  const response = await findResponseById(db, id);
  if (!response) throw new NotFoundError(`Response with id \`${id}\` not found`);
  return response;
}

/** The dataset's questions for the value checks, and the names of those the caller may not answer. */
async function loadQuestions(db: Db, datasetId: string, user: UserRow): Promise<{ questions: QuestionForCheck[]; hidden: HiddenQuestions | undefined }> {
  const rows = await listQuestions(db, datasetId);
  return {
    questions: rows.map(questionForCheck),
    hidden: hiddenQuestionsFor(user, rows),
  };
}

/** Checks the body's values against the dataset's questions as `user` may answer them (contract §3.7). */
async function checkValues(db: Db, user: UserRow, dataset: DatasetRow, record: StoredRecord, body: ResponseBody) {
  const { questions, hidden } = await loadQuestions(db, dataset.id, user);
  return { values: validateResponse(body, questions, fromJson(record.fields), { hidden: hidden?.names }), hidden };
}

/**
 * An update by someone the question is hidden from keeps what an admin answered for it: they never
 * saw that value, so leaving it out of their body does not mean removing it.
 */
function keepHiddenValues(values: Record<string, unknown> | null, previous: string | null, hidden: HiddenQuestions | undefined): Record<string, unknown> | null {
  if (!hidden || previous === null) return values;
  const kept = Object.entries(fromJson<Record<string, unknown>>(previous) ?? {}).filter(([name]) => hidden.names.has(name));
  return kept.length === 0 ? values : { ...values, ...Object.fromEntries(kept) };
}

/**
 * Contract §1.5: PUT/DELETE of a response by its author, or by an admin member / owner
 * (an annotator who is not the author gets 403).
 */
async function authorizeResponseChange(db: Db, user: UserRow, response: ResponseRow, dataset: DatasetRow): Promise<void> {
  if (response.user_id === user.id) return;
  await requireAdminMember(db, user, dataset.workspace_id);
}

/**
 * Queues what the reference sends after a response write: `record.updated` with the record as it
 * stands in `trx` (its status recounted), `record.completed` when it is completed, then the
 * response event.
 */
async function raiseResponseEvents(trx: Db, event: 'response.created' | 'response.updated' | 'response.deleted', dataset: DatasetRow, row: ResponseRow): Promise<void> {
  // Read once for the three events; a response write with no webhook costs this one read.
  const webhooks = await enabledWebhooks(trx);
  if (webhooks.length === 0) return;
  let recordData: ReturnType<typeof recordEventData> | undefined;
  const ofRecord = async () => (recordData ??= recordEventData((await findRecordById(trx, row.record_id))!, await datasetEventData(trx, dataset)));
  await raiseWebhookEvents(trx, 'record.updated', async () => [await ofRecord()], webhooks);
  await raiseWebhookEvents(
    trx,
    'record.completed',
    async () => {
      const record = await ofRecord();
      return record.status === 'completed' ? [record] : [];
    },
    webhooks,
  );
  await raiseWebhookEvents(trx, event, async () => [await responseEventData(trx, row, await ofRecord())], webhooks);
}

const responseExists = (recordId: string, userId: string) =>
  new ConflictError(`Response already exists for record with id \`${recordId}\` and by user with id \`${userId}\``);

/** The author's answer to a record as a write leaves it: the stored values while submitted, otherwise null. */
interface WrittenAnswer {
  record: StoredRecord;
  userId: string;
  submittedValues: string | null;
}

const answerOf = (record: StoredRecord, row: ResponseRow): WrittenAnswer => ({
  record,
  userId: row.user_id,
  submittedValues: row.status === 'submitted' ? row.values : null,
});

/**
 * A response write in one transaction, then the agreement's kept answers told of it: after the
 * commit, as before it a request could read the old answers under the new version.
 */
async function writeResponse<T>(db: Db, dataset: DatasetRow, answer: WrittenAnswer, write: (trx: Db) => Promise<T>): Promise<T> {
  // Most datasets have no kept answers here: their writes skip the version reads. A read that
  // starts meanwhile finds the version moved and reads again.
  if (!keepsAnswersOf(db, dataset.id)) return db.transaction().execute(write);
  const { result, step } = await db.transaction().execute((trx) => withResponseSetStep(trx, dataset.id, () => write(trx)));
  if (step) {
    const { record, userId, submittedValues } = answer;
    applyResponseChange(db, dataset.id, { ...step, recordId: record.id, recordRid: record.rid, userId, submittedValues });
  }
  return result;
}

/** A new response counted in its record and its author among the dataset's users, then the dataset's activity. */
async function insertResponse(db: Db, dataset: DatasetRow, record: StoredRecord, row: ResponseRow, isDatasetUser: boolean): Promise<void> {
  // A concurrent request of the same user may have created one since the caller looked.
  const inserted = await writeResponse(db, dataset, answerOf(record, row), async (trx) => {
    if (!(await insertCountedResponse(trx, row, minSubmitted(dataset), isDatasetUser))) return false;
    await raiseResponseEvents(trx, 'response.created', dataset, row);
    return true;
  });
  if (!inserted) throw responseExists(row.record_id, row.user_id);
  await touchDatasetActivity(db, dataset.id, row.updated_at);
}

/** A changed response and its record's recounted status in one transaction, then the dataset's activity. */
async function saveChangedResponse(db: Db, dataset: DatasetRow, record: StoredRecord, row: ResponseRow): Promise<void> {
  await writeResponse(db, dataset, answerOf(record, row), async (trx) => {
    await updateResponseRow(trx, row.id, { status: row.status, values: row.values, updated_at: row.updated_at });
    await refreshRecordStatuses(trx, dataset, [row.record_id]);
    await raiseResponseEvents(trx, 'response.updated', dataset, row);
  });
  await touchDatasetActivity(db, dataset.id, row.updated_at);
}

/** `POST /records/{id}/responses`: the caller's first response to a record. */
export async function createResponse(database: Database, user: UserRow, recordId: string, body: ResponseBody): Promise<ResponseRow> {
  const { db } = database;
  const record = await getRecordOrThrow(db, recordId);
  const { dataset, isMember, hasResponded } = await getDatasetForUserOrThrow(db, record.dataset_id, user.id);
  await requireMember(db, user, dataset.workspace_id, isMember);
  return (await createResponseFor(db, user, record, dataset, body, hasResponded)).row;
}

/** The saved row, and the questions hidden from `user` (their values are left out of what `user` is shown). */
interface SavedResponse {
  row: ResponseRow;
  hidden: HiddenQuestions | undefined;
}

async function createResponseFor(db: Db, user: UserRow, record: StoredRecord, dataset: DatasetRow, body: ResponseBody, hasResponded = false): Promise<SavedResponse> {
  // A second response by the same user is found by the insert (409), as the reference checks the values first.
  const { values, hidden } = await checkValues(db, user, dataset, record, body);
  const now = nowTimestamp();
  const row: ResponseRow = {
    id: newId(),
    record_id: record.id,
    dataset_id: dataset.id,
    user_id: user.id,
    status: body.status,
    values: values === null ? null : toJson(values),
    inserted_at: now,
    updated_at: now,
  };
  await insertResponse(db, dataset, record, row, hasResponded);
  return { row, hidden };
}

/** `PUT /responses/{id}`: status and values replaced (contract §2.10: values never merge), but for hidden questions' values (keepHiddenValues). */
export async function updateResponse(database: Database, user: UserRow, responseId: string, body: ResponseBody): Promise<ResponseJson> {
  // The reference's body is a union discriminated by status: `submitted` requires `values`.
  if (body.status === 'submitted' && body.values === undefined) {
    throw new RequestValidationError([{ type: 'missing', loc: ['body', 'submitted', 'values'], msg: 'Field required' }]);
  }
  const { db } = database;
  const response = await getResponseOrThrow(db, responseId);
  const record = await getRecordOrThrow(db, response.record_id);
  const dataset = await getDatasetOrThrow(db, record.dataset_id);
  await authorizeResponseChange(db, user, response, dataset);
  const { row, hidden } = await updateResponseFor(db, user, response, record, dataset, body);
  return presentResponse(row, hidden);
}

/** `user` is the caller, whose role decides which questions may carry values. */
async function updateResponseFor(db: Db, user: UserRow, response: ResponseRow, record: StoredRecord, dataset: DatasetRow, body: ResponseBody): Promise<SavedResponse> {
  const checked = await checkValues(db, user, dataset, record, body);
  const values = keepHiddenValues(checked.values, response.values, checked.hidden);
  const row: ResponseRow = { ...response, status: body.status, values: values === null ? null : toJson(values), updated_at: nowTimestamp() };
  await saveChangedResponse(db, dataset, record, row);
  return { row, hidden: checked.hidden };
}

/**
 * `DELETE /responses/{id}`: 200 with the deleted response; dataset users stay (contract §6.1).
 * An annotator deleting their own response does not get back what an admin answered in it for a
 * question hidden from them.
 */
export async function deleteResponse(database: Database, user: UserRow, responseId: string): Promise<ResponseJson> {
  const { db } = database;
  const response = await getResponseOrThrow(db, responseId);
  const record = await getRecordOrThrow(db, response.record_id);
  const dataset = await getDatasetOrThrow(db, record.dataset_id);
  await authorizeResponseChange(db, user, response, dataset);
  await writeResponse(db, dataset, { record, userId: response.user_id, submittedValues: null }, async (trx) => {
    await deleteResponseRow(trx, response.id);
    await refreshRecordStatuses(trx, dataset, [record.id]);
    await raiseResponseEvents(trx, 'response.deleted', dataset, response);
  });
  await touchDatasetActivity(db, dataset.id, nowTimestamp());
  return presentResponse(response, hiddenQuestionsFor(user, await listQuestions(db, dataset.id)));
}

export interface BulkResponseItem {
  item: ResponseJson | null;
  error: { detail: string } | null;
}

/**
 * `POST /me/responses/bulk`: upserts the caller's response per record. Each item stands alone:
 * a missing record, a policy refusal or a bad value becomes that item's `error.detail`.
 */
export async function upsertMyResponses(database: Database, user: UserRow, items: ResponseUpsertItem[]): Promise<BulkResponseItem[]> {
  const { db } = database;
  const results: BulkResponseItem[] = [];
  for (const item of items) {
    try {
      const record = await getRecordOrThrow(db, item.record_id);
      const dataset = await getDatasetOrThrow(db, record.dataset_id);
      await requireMember(db, user, dataset.workspace_id);
      const existing = await findResponseOfUser(db, record.id, user.id);
      const body: ResponseBody = { status: item.status, values: item.values };
      const saved = existing
        ? await updateResponseFor(db, user, existing, record, dataset, body)
        : await createResponseFor(db, user, record, dataset, body).catch(async (error: unknown) => {
            // Upsert: another request of this user created the response meanwhile; update that one.
            const created = error instanceof ConflictError ? await findResponseOfUser(db, record.id, user.id) : undefined;
            if (!created) throw error;
            return updateResponseFor(db, user, created, record, dataset, body);
          });
      results.push({ item: presentResponse(saved.row, saved.hidden), error: null });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      results.push({ item: null, error: { detail: error.message } });
    }
  }
  return results;
}
