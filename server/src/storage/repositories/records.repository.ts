import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { dialectOf } from '../dialect.js';
import type { RecordRow, ResponseRow, SuggestionRow, Tables, VectorRow } from '../tables.js';
import { preparedQuery } from '../prepared-query.js';
import { bulkUpsert, type BulkTable, type BulkWriteOptions, type RawSqlite } from './bulk-upsert.js';

type Db = Kysely<Tables>;

/** A records row as read (rid is a plain number once generated). */
export type StoredRecord = Selectable<RecordRow>;

/** SQLite binds at most 32766 parameters per statement; stay well below it. */
const MAX_PARAMETERS = 30_000;

function chunks<T>(rows: T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMETERS / columns));
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += size) out.push(rows.slice(start, start + size));
  return out;
}

const recordById = preparedQuery((db, id: string) => db.selectFrom('records').selectAll().where('id', '=', id));
export const findRecordById = (db: Db, id: string): Promise<StoredRecord | undefined> => recordById.first(db, id);

/**
 * PostgreSQL: one probe of the (dataset_id, external_id) key per id. Written as `dataset_id = ?
 * AND external_id IN (...)`, PostgreSQL without fresh statistics (a dataset growing by a bulk
 * ingestion) read every record of the dataset through another (dataset_id, ...) index and
 * filtered them: 15 ms a request at 100,000 records, growing with the dataset.
 */
export function postgresExternalIdLookup(datasetId: string, externalIds: string[]) {
  return sql<StoredRecord>`SELECT r.* FROM unnest(${sql.val(externalIds)}::text[]) AS wanted(external_id)
    CROSS JOIN LATERAL (SELECT * FROM records WHERE dataset_id = ${datasetId} AND external_id = wanted.external_id LIMIT 1) AS r`;
}

/**
 * Records of a dataset with these external ids. SQLite takes the ids as one JSON array: one short
 * statement, prepared once, instead of a new one of hundreds of parameters for each bulk write.
 */
export async function findRecordsByExternalIds(db: Db, datasetId: string, externalIds: string[]): Promise<StoredRecord[]> {
  if (externalIds.length === 0) return [];
  if (dialectOf(db) === 'postgres') return (await postgresExternalIdLookup(datasetId, externalIds).execute(db)).rows;
  const { rows } = await sql<StoredRecord>`SELECT * FROM records WHERE dataset_id = ${datasetId} AND external_id IN (SELECT value FROM json_each(${JSON.stringify(externalIds)}))`.execute(db);
  return rows;
}

/**
 * Records of a dataset with these ids (ids of other datasets are ignored). Looks up by `id` only
 * and filters the dataset here: with `dataset_id = ?` in SQL, SQLite may pick the
 * (dataset_id, rid) index and scan the whole dataset instead of 500 primary-key probes.
 */
export async function findRecordsByIds(db: Db, datasetId: string, ids: string[]): Promise<StoredRecord[]> {
  const rows: StoredRecord[] = [];
  for (const chunk of chunks(ids, 60)) {
    if (chunk.length === 0) continue;
    for (const row of await db.selectFrom('records').selectAll().where('id', 'in', chunk).execute()) {
      if (row.dataset_id === datasetId) rows.push(row);
    }
  }
  return rows;
}

/** A records row as written: every column but the generated rid. */
/** Up to `limit` records of the dataset after `afterRid`, in insertion order (the (dataset_id, rid) index). */
export function listRecordsAfter(db: Db, datasetId: string, afterRid: number, limit: number): Promise<StoredRecord[]> {
  return db.selectFrom('records').selectAll().where('dataset_id', '=', datasetId).where('rid', '>', afterRid).orderBy('rid').limit(limit).execute();
}

export type RecordWrite = Omit<StoredRecord, 'rid'>;

const recordsTable: BulkTable<RecordWrite> = {
  table: 'records',
  columns: [
    ['id', 'text'],
    ['dataset_id', 'text'],
    ['external_id', 'text'],
    ['fields', 'jsonb'],
    ['metadata', 'jsonb'],
    ['status', 'text'],
    ['submitted_count', 'integer'],
    ['inserted_at', 'text'],
    ['updated_at', 'text'],
  ],
  onConflict: 'ON CONFLICT (id) DO UPDATE SET fields = excluded.fields, metadata = excluded.metadata, updated_at = excluded.updated_at',
  returning: 'RETURNING rid, id',
};

/**
 * Inserts new records and rewrites existing ones (matched on `id`) with multi-row statements;
 * existing rows keep rid, status, counters and inserted_at. Returns each id's rid.
 */
export async function upsertRecordRows(db: Db, rows: RecordWrite[], raw?: RawSqlite, options?: BulkWriteOptions): Promise<Map<string, number>> {
  const written = await bulkUpsert<RecordWrite, { rid: number | string; id: string }>(db, recordsTable, rows, raw, options);
  return new Map(written.map((row) => [row.id, Number(row.rid)]));
}

const suggestionsTable: BulkTable<SuggestionRow> = {
  table: 'suggestions',
  columns: [
    ['id', 'text'],
    ['record_id', 'text'],
    ['dataset_id', 'text'],
    ['question_id', 'text'],
    ['type', 'text'],
    ['value', 'jsonb'],
    ['agent', 'text'],
    ['score', 'jsonb'],
    ['inserted_at', 'text'],
    ['updated_at', 'text'],
  ],
  onConflict: 'ON CONFLICT (record_id, question_id) DO UPDATE SET type = excluded.type, value = excluded.value, agent = excluded.agent, score = excluded.score, updated_at = excluded.updated_at',
};

/** Upserts suggestions per (record, question); an existing row keeps its id and inserted_at. */
export async function upsertSuggestionRows(db: Db, rows: SuggestionRow[], raw?: RawSqlite, options?: BulkWriteOptions): Promise<void> {
  await bulkUpsert(db, suggestionsTable, rows, raw, options);
}

const responsesTable: BulkTable<ResponseRow> = {
  table: 'responses',
  columns: [
    ['id', 'text'],
    ['record_id', 'text'],
    ['dataset_id', 'text'],
    ['user_id', 'text'],
    ['status', 'text'],
    ['values', 'jsonb'],
    ['inserted_at', 'text'],
    ['updated_at', 'text'],
  ],
  onConflict: 'ON CONFLICT (record_id, user_id) DO UPDATE SET status = excluded.status, "values" = excluded."values", updated_at = excluded.updated_at',
};

/** Upserts responses per (record, user); an existing row keeps its id and inserted_at. */
export async function upsertResponseRows(db: Db, rows: ResponseRow[], raw?: RawSqlite, options?: BulkWriteOptions): Promise<void> {
  await bulkUpsert(db, responsesTable, rows, raw, options);
}

const vectorsTable: BulkTable<VectorRow> = {
  table: 'vectors',
  columns: [
    ['record_id', 'text'],
    ['dataset_id', 'text'],
    ['vector_settings_id', 'text'],
    ['value', 'bytea'],
    ['inserted_at', 'text'],
    ['updated_at', 'text'],
  ],
  onConflict: 'ON CONFLICT (record_id, vector_settings_id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
};

/** Upserts vectors per (record, vector settings). With pgvector, their embeddings are filled after the write (storage/search/embedding-filler.ts). */
export async function upsertVectorRows(db: Db, rows: VectorRow[], raw?: RawSqlite, options?: BulkWriteOptions): Promise<void> {
  await bulkUpsert(db, vectorsTable, rows, raw, options);
}

export async function deleteSuggestionsOfRecord(db: Db, recordId: string): Promise<void> {
  await db.deleteFrom('suggestions').where('record_id', '=', recordId).execute();
}

/** Deletes records of a dataset (relations cascade) and returns the deleted rows. */
export async function deleteRecords(db: Db, datasetId: string, ids: string[]): Promise<Pick<StoredRecord, 'id' | 'rid'>[]> {
  const deleted: Pick<StoredRecord, 'id' | 'rid'>[] = [];
  for (const chunk of chunks(ids, 60)) {
    if (chunk.length === 0) continue;
    const rows = await db
      .deleteFrom('records')
      .where('dataset_id', '=', datasetId)
      .where('id', 'in', chunk)
      .returning(['id', 'rid'])
      .execute();
    deleted.push(...rows.map((r) => ({ id: r.id, rid: Number(r.rid) })));
  }
  return deleted;
}

/** Ids of the given users that exist. */
export async function findExistingUserIds(db: Db, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunks([...new Set(ids)], 60)) {
    if (chunk.length === 0) continue;
    for (const row of await db.selectFrom('users').select('id').where('id', 'in', chunk).execute()) found.add(row.id);
  }
  return found;
}

const addDatasetUser = preparedQuery((db, datasetId: string, userId: string, now: string) =>
  db
    .insertInto('dataset_users')
    .values({ dataset_id: datasetId, user_id: userId, inserted_at: now })
    .onConflict((oc) => oc.columns(['dataset_id', 'user_id']).doNothing()),
);
const touchActivity = preparedQuery((db, now: string, datasetId: string) =>
  db.updateTable('datasets').set({ last_activity_at: now }).where('id', '=', datasetId).where('last_activity_at', '<', now),
);
const lockRecord = preparedQuery((db, id: string) => db.selectFrom('records').select('id').where('id', '=', id).forNoKeyUpdate());

/** A record's status from its count of submitted responses: `completed` from `min_submitted` on (contract §6.1). */
export const statusForSubmitted = (submitted: RawBuilder<number>, min: number) =>
  sql<RecordRow['status']>`CASE WHEN ${submitted} >= ${min} THEN 'completed' ELSE 'pending' END`;

/** After responses changed in a dataset: remember who responded (first-response order, never removed; contract §6.1). */
export async function recordDatasetUsers(db: Db, datasetId: string, userIds: string[], now: string): Promise<void> {
  const unique = [...new Set(userIds)];
  if (unique.length === 1) {
    // One response (the submit path): a fixed-shape statement, compiled once.
    await addDatasetUser.all(db, datasetId, unique[0], now);
    return;
  }
  for (const chunk of chunks(unique, 3)) {
    if (chunk.length === 0) continue;
    await db
      .insertInto('dataset_users')
      .values(chunk.map((userId) => ({ dataset_id: datasetId, user_id: userId, inserted_at: now })))
      .onConflict((oc) => oc.columns(['dataset_id', 'user_id']).doNothing())
      .execute();
  }
}

/**
 * Bumps the dataset's `last_activity_at` without touching `updated_at` (contract §3.1), never
 * backwards. Called after a single response's transaction commits, not in it: every annotator of
 * a dataset writes this one row, and a row lock held until each commit queued concurrent submits
 * behind each other (PostgreSQL, 200 annotators: the most frequent wait of the submit path).
 */
export async function touchDatasetActivity(db: Db, datasetId: string, now: string): Promise<void> {
  await touchActivity.all(db, now, datasetId);
}

/**
 * Before recounting records' responses in a transaction: PostgreSQL row-locks the records (in id
 * order, so concurrent callers never deadlock; NO KEY UPDATE does not wait for the key-share
 * locks that inserting responses takes), so the recount, a later statement with a fresh
 * snapshot, sees every response another process committed meanwhile. Without it two concurrent
 * submits can both count only their own response. SQLite runs one writer at a time: nothing to do.
 */
export async function lockRecordsForRecount(db: Db, ids: string[]): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  if (ids.length === 1) {
    await lockRecord.all(db, ids[0]);
    return;
  }
  for (const chunk of chunks(ids, 60)) {
    if (chunk.length === 0) continue;
    await db.selectFrom('records').select('id').where('id', 'in', chunk).orderBy('id').forNoKeyUpdate().execute();
  }
}
