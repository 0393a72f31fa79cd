import type { Kysely } from 'kysely';
import type { RecordValidationRow, SuggestionRow, Tables } from '../tables.js';
import type { StoredRecord } from './records.repository.js';

type Db = Kysely<Tables>;

/** The next `limit` records of a dataset after `afterRid`, in insertion order (records_dataset_rid_idx). */
export async function listRecordsAfter(db: Db, datasetId: string, afterRid: number, limit: number): Promise<StoredRecord[]> {
  return db.selectFrom('records').selectAll().where('dataset_id', '=', datasetId).where('rid', '>', afterRid).orderBy('rid').limit(limit).execute();
}

export interface SubmittedResponse {
  record_id: string;
  user_id: string;
  username: string;
  status: 'submitted';
  values: string | null;
}

/** The submitted responses of these records with their authors' usernames, oldest first. */
export async function listSubmittedResponses(db: Db, recordIds: readonly string[]): Promise<SubmittedResponse[]> {
  if (recordIds.length === 0) return [];
  const rows = await db
    .selectFrom('responses as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.record_id', 'r.user_id', 'u.username', 'r.values'])
    .where('r.record_id', 'in', recordIds)
    .where('r.status', '=', 'submitted')
    .orderBy('r.inserted_at')
    .orderBy('r.id')
    .execute();
  return rows.map((row) => ({ ...row, status: 'submitted' as const }));
}

/** The suggestions of these records. */
export async function listSuggestionsOfRecords(
  db: Db,
  recordIds: readonly string[],
): Promise<Pick<SuggestionRow, 'record_id' | 'question_id' | 'value' | 'agent' | 'score'>[]> {
  if (recordIds.length === 0) return [];
  return db.selectFrom('suggestions').select(['record_id', 'question_id', 'value', 'agent', 'score']).where('record_id', 'in', recordIds).execute();
}

/** The final answers of these records. */
export async function listValidationsOfRecords(
  db: Db,
  recordIds: readonly string[],
): Promise<Pick<RecordValidationRow, 'record_id' | 'values' | 'user_id' | 'updated_at'>[]> {
  if (recordIds.length === 0) return [];
  return db.selectFrom('record_validations').select(['record_id', 'values', 'user_id', 'updated_at']).where('record_id', 'in', recordIds).execute();
}
