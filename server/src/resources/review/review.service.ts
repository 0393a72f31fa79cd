import { sql, type Kysely } from 'kysely';
import { requireAdminMember } from '../../auth/access.js';
import { DomainError, NotFoundError } from '../../errors.js';
import { nowTimestamp } from '../../lib/time.js';
import { fromJson, toJson } from '../../storage/json.js';
import { listQuestions } from '../../storage/repositories/dataset-settings.repository.js';
import { deleteValidation, findValidations, saveValidations } from '../../storage/repositories/record-validations.repository.js';
import { findRecordById, touchDatasetActivity, type StoredRecord } from '../../storage/repositories/records.repository.js';
import type { DatasetRow, RecordValidationRow, Tables, UserRow } from '../../storage/tables.js';
import { getDatasetOrThrow } from '../datasets/dataset-lookup.js';
import { questionForCheck, validateResponse, type QuestionForCheck, type ResponseValuesInput } from '../responses/validate-response.js';
import { agreedAnswer } from './agreed-answer.js';
import { presentValidation, type ValidationJson } from './validation.presenter.js';

type Db = Kysely<Tables>;

/** The record and its dataset, once the caller is known to be an owner or an admin member of its workspace. */
async function loadRecordForReview(db: Db, user: UserRow, recordId: string): Promise<{ record: StoredRecord; dataset: DatasetRow }> {
  const record = await findRecordById(db, recordId);
  if (!record) throw new NotFoundError(`Record with id \`${recordId}\` not found`);
  const dataset = await getDatasetOrThrow(db, record.dataset_id);
  await requireAdminMember(db, user, dataset.workspace_id);
  return { record, dataset };
}

async function questionsForCheck(db: Db, datasetId: string): Promise<QuestionForCheck[]> {
  return (await listQuestions(db, datasetId)).map(questionForCheck);
}

/** A final answer obeys the rules of a submitted response: values for every required question, each value valid. */
function checkFinalValues(values: ResponseValuesInput, questions: QuestionForCheck[], record: Pick<StoredRecord, 'fields'>): ResponseValuesInput {
  return validateResponse({ status: 'submitted', values }, questions, fromJson(record.fields))!;
}

/** `PUT /records/{id}/validation`: stores the record's final answer; the record reads as validated. */
export async function validateRecord(db: Db, user: UserRow, recordId: string, values: ResponseValuesInput): Promise<ValidationJson> {
  const { record, dataset } = await loadRecordForReview(db, user, recordId);
  const checked = checkFinalValues(values, await questionsForCheck(db, dataset.id), record);
  const now = nowTimestamp();
  await saveValidations(db, [{ record_id: record.id, dataset_id: dataset.id, values: toJson(checked), user_id: user.id, inserted_at: now, updated_at: now }]);
  await touchDatasetActivity(db, dataset.id, now);
  const saved = (await findValidations(db, [record.id])).get(record.id)!;
  return presentValidation(saved);
}

/** `DELETE /records/{id}/validation`: reopens the record; answers the final answer it had. */
export async function reopenRecord(db: Db, user: UserRow, recordId: string): Promise<ValidationJson> {
  const { record, dataset } = await loadRecordForReview(db, user, recordId);
  const existing = (await findValidations(db, [record.id])).get(record.id);
  if (!existing || !(await deleteValidation(db, record.id))) throw new NotFoundError(`Record with id \`${recordId}\` is not validated`);
  await touchDatasetActivity(db, dataset.id, nowTimestamp());
  return presentValidation(existing);
}

export interface BulkValidationResult {
  /** records validated by this call */
  validated: number;
  /** completed, not yet validated records whose submitted answers differ */
  disagreeing: number;
}

const CHUNK = 500;

/**
 * `POST /datasets/{id}/records/validation/bulk`: every completed record that is not validated yet
 * and whose submitted responses all give the same answer gets that answer as its final one.
 */
export async function validateAgreeingRecords(db: Db, user: UserRow, datasetId: string, recordIds?: string[]): Promise<BulkValidationResult> {
  const dataset = await getDatasetOrThrow(db, datasetId);
  await requireAdminMember(db, user, dataset.workspace_id);
  const questions = await questionsForCheck(db, dataset.id);
  const result: BulkValidationResult = { validated: 0, disagreeing: 0 };
  let afterRid = -1;
  for (;;) {
    let query = db
      .selectFrom('records')
      .select(['id', 'rid', 'fields'])
      .where('dataset_id', '=', dataset.id)
      .where('status', '=', 'completed')
      .where('rid', '>', afterRid)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('record_validations').select(sql`1`.as('one')).whereRef('record_validations.record_id', '=', 'records.id'))),
      );
    if (recordIds) query = query.where('id', 'in', recordIds);
    const records = await query.orderBy('rid').limit(CHUNK).execute();
    if (records.length === 0) break;
    afterRid = Number(records[records.length - 1].rid);
    const answers = await submittedAnswers(db, records.map((r) => r.id));
    const now = nowTimestamp();
    const rows: RecordValidationRow[] = [];
    for (const record of records) {
      const final = agreedAnswer(questions, answers.get(record.id) ?? []);
      const checked = final && checkedOrNull(final, questions, record);
      if (!checked) {
        result.disagreeing += 1;
        continue;
      }
      rows.push({ record_id: record.id, dataset_id: dataset.id, values: toJson(checked), user_id: user.id, inserted_at: now, updated_at: now });
    }
    await saveValidations(db, rows);
    result.validated += rows.length;
    if (records.length < CHUNK) break;
  }
  if (result.validated > 0) await touchDatasetActivity(db, dataset.id, nowTimestamp());
  return result;
}

/** An agreed answer that misses a required question (its texts differed) cannot be final. */
function checkedOrNull(values: ResponseValuesInput, questions: QuestionForCheck[], record: Pick<StoredRecord, 'fields'>): ResponseValuesInput | null {
  try {
    return checkFinalValues(values, questions, record);
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}

async function submittedAnswers(db: Db, recordIds: string[]): Promise<Map<string, ResponseValuesInput[]>> {
  const rows = await db
    .selectFrom('responses')
    .select(['record_id', 'values'])
    .where('record_id', 'in', recordIds)
    .where('status', '=', 'submitted')
    // The first submitted answer gives the agreed value its form (e.g. the order of a selection).
    .orderBy('inserted_at')
    .execute();
  const byRecord = new Map<string, ResponseValuesInput[]>();
  for (const row of rows) {
    if (row.values === null) continue;
    const list = byRecord.get(row.record_id) ?? [];
    list.push(fromJson<ResponseValuesInput>(row.values));
    byRecord.set(row.record_id, list);
  }
  return byRecord;
}
