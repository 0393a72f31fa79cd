import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import type { DatasetRow, Tables } from '../tables.js';
import { preparedQuery } from '../prepared-query.js';

type Db = Kysely<Tables>;

const datasetById = preparedQuery((db, id: string) => db.selectFrom('datasets').selectAll().where('id', '=', id));
export const findDatasetById = (db: Db, id: string): Promise<DatasetRow | undefined> => datasetById.first(db, id);

const datasetForUser = preparedQuery((db, id: string, memberId: string, responderId: string) =>
  db
    .selectFrom('datasets')
    .selectAll('datasets')
    .select((eb) => [
      eb.exists(eb.selectFrom('workspace_users').select('user_id').whereRef('workspace_users.workspace_id', '=', 'datasets.workspace_id').where('workspace_users.user_id', '=', memberId)).as('is_member'),
      eb.exists(eb.selectFrom('dataset_users').select('user_id').whereRef('dataset_users.dataset_id', '=', 'datasets.id').where('dataset_users.user_id', '=', responderId)).as('has_responded'),
    ])
    .where('datasets.id', '=', id),
);

export interface DatasetForUser {
  dataset: DatasetRow;
  /** A member of the dataset's workspace (owners are allowed without being one). */
  isMember: boolean;
  /** Among the dataset's users: responded to one of its records before. */
  hasResponded: boolean;
}

/** A dataset with what the submit path asks about its caller, in one query (each query is a round trip under load). */
export async function findDatasetForUser(db: Db, id: string, userId: string): Promise<DatasetForUser | undefined> {
  const row = await datasetForUser.first(db, id, userId, userId);
  if (!row) return undefined;
  const { is_member, has_responded, ...dataset } = row;
  // SQLite answers EXISTS with 0/1, PostgreSQL with a boolean.
  return { dataset, isMember: Boolean(is_member), hasResponded: Boolean(has_responded) };
}

export interface DatasetFilters {
  /** Restrict to workspaces this user belongs to (non-owners). */
  memberUserId?: string;
  workspaceId?: string;
  name?: string;
  status?: DatasetRow['status'];
}

/** Datasets in creation order (contract §0), optionally limited to a member's workspaces. */
export async function listDatasets(db: Db, filters: DatasetFilters): Promise<DatasetRow[]> {
  let query = db.selectFrom('datasets').selectAll('datasets');
  if (filters.memberUserId) {
    query = query
      .innerJoin('workspace_users', 'workspace_users.workspace_id', 'datasets.workspace_id')
      .where('workspace_users.user_id', '=', filters.memberUserId);
  }
  if (filters.workspaceId) query = query.where('datasets.workspace_id', '=', filters.workspaceId);
  if (filters.name !== undefined) query = query.where('datasets.name', '=', filters.name);
  if (filters.status) query = query.where('datasets.status', '=', filters.status);
  return query.orderBy('datasets.inserted_at').execute();
}

export const findDatasetByName = (db: Db, workspaceId: string, name: string): Promise<DatasetRow | undefined> =>
  db.selectFrom('datasets').selectAll().where('workspace_id', '=', workspaceId).where('name', '=', name).executeTakeFirst();

export async function workspaceExists(db: Db, workspaceId: string): Promise<boolean> {
  const row = await db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).executeTakeFirst();
  return row !== undefined;
}

export async function insertDataset(db: Db, row: DatasetRow): Promise<DatasetRow> {
  await db.insertInto('datasets').values(row).execute();
  return row;
}

export async function updateDataset(db: Db, id: string, changes: Partial<Omit<DatasetRow, 'id'>>): Promise<void> {
  await db.updateTable('datasets').set(changes).where('id', '=', id).execute();
}

/**
 * Deletes the dataset and its records (PostgreSQL's records have no foreign key to their dataset:
 * see holdDatasetForRecordWrites); foreign keys cascade to its settings and the records' relations.
 */
export async function deleteDataset(db: Db, id: string): Promise<void> {
  await db.deleteFrom('records').where('dataset_id', '=', id).execute();
  await db.deleteFrom('datasets').where('id', '=', id).execute();
}

/**
 * Whether the dataset still exists, holding it until the transaction ends so it cannot be deleted
 * under the records being written. PostgreSQL took this lock (FOR KEY SHARE) for each record
 * through its foreign key, ~9 µs a record; once per write now. SQLite has one writer at a time.
 */
export async function holdDatasetForRecordWrites(db: Db, id: string): Promise<boolean> {
  const query = db.selectFrom('datasets').select('id').where('id', '=', id);
  const row = await (dialectOf(db) === 'postgres' ? query.forKeyShare() : query).executeTakeFirst();
  return row !== undefined;
}

/**
 * Record counts by status: SQLite reads its trigger-kept counters (no row: no records yet);
 * PostgreSQL counts (migration 202611240100 says why it keeps no counters).
 */
export async function countRecordsByStatus(db: Db, datasetId: string): Promise<{ pending: number; completed: number }> {
  if (dialectOf(db) === 'postgres') {
    const rows = await db
      .selectFrom('records')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('dataset_id', '=', datasetId)
      .groupBy('status')
      .execute();
    const counts = { pending: 0, completed: 0 };
    for (const row of rows) counts[row.status] = Number(row.n);
    return counts;
  }
  const row = await db
    .selectFrom('dataset_record_counts')
    .select(['pending', 'completed'])
    .where('dataset_id', '=', datasetId)
    .executeTakeFirst();
  return { pending: Number(row?.pending ?? 0), completed: Number(row?.completed ?? 0) };
}

export async function countRecords(db: Db, datasetId: string): Promise<number> {
  if (dialectOf(db) === 'postgres') {
    const row = await db
      .selectFrom('records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('dataset_id', '=', datasetId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
  const counts = await countRecordsByStatus(db, datasetId);
  return counts.pending + counts.completed;
}

/** Whether the dataset holds at least `n` records: SQLite reads its counters, PostgreSQL counts no further than `n`. */
export async function hasAtLeastRecords(db: Db, datasetId: string, n: number): Promise<boolean> {
  if (n <= 0) return true;
  if (!Number.isFinite(n)) return false;
  if (dialectOf(db) !== 'postgres') return (await countRecords(db, datasetId)) >= n;
  const { rows } = await sql<{ n: number }>`
    SELECT count(*) AS n FROM (SELECT 1 FROM records WHERE dataset_id = ${datasetId} LIMIT ${n}) r`.execute(db);
  return Number(rows[0]?.n ?? 0) >= n;
}

/** Usernames of everyone who ever responded in the dataset, in first-response order (contract §6.1). */
export async function listDatasetUsernames(db: Db, datasetId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('dataset_users')
    .innerJoin('users', 'users.id', 'dataset_users.user_id')
    .select('users.username')
    .where('dataset_users.dataset_id', '=', datasetId)
    .orderBy('dataset_users.inserted_at')
    .orderBy('users.username')
    .execute();
  return rows.map((r) => r.username);
}

export interface UserResponseCount {
  username: string;
  record_status: 'pending' | 'completed';
  response_status: 'draft' | 'submitted' | 'discarded';
  n: number;
}

/**
 * Responses per (user, record status, response status), users in first-response order
 * (users without a dataset_users row last, by their first response).
 */
export async function countResponsesByUserAndStatus(db: Db, datasetId: string): Promise<UserResponseCount[]> {
  const rows = await db
    .selectFrom('responses')
    .innerJoin('records', 'records.id', 'responses.record_id')
    .innerJoin('users', 'users.id', 'responses.user_id')
    .leftJoin('dataset_users', (join) =>
      join.onRef('dataset_users.user_id', '=', 'responses.user_id').on('dataset_users.dataset_id', '=', datasetId),
    )
    .select([
      'users.username as username',
      'records.status as record_status',
      'responses.status as response_status',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.min('dataset_users.inserted_at').as('joined_at'),
      (eb) => eb.fn.min('responses.inserted_at').as('first_response_at'),
    ])
    .where('responses.dataset_id', '=', datasetId)
    .groupBy(['users.username', 'records.status', 'responses.status'])
    .execute();
  const order = new Map<string, string>();
  for (const row of rows) {
    const key = `${row.joined_at ?? '~'}|${row.first_response_at ?? ''}`;
    const known = order.get(row.username);
    if (known === undefined || key < known) order.set(row.username, key);
  }
  return rows
    .map((r) => ({ username: r.username, record_status: r.record_status, response_status: r.response_status, n: Number(r.n) }))
    .sort((a, b) => {
      const ka = order.get(a.username)!;
      const kb = order.get(b.username)!;
      return ka < kb ? -1 : ka > kb ? 1 : a.username < b.username ? -1 : a.username > b.username ? 1 : 0;
    });
}

/** One user's responses in the dataset by status. */
export async function countUserResponsesByStatus(
  db: Db,
  datasetId: string,
  userId: string,
): Promise<{ draft: number; submitted: number; discarded: number }> {
  const rows = await db
    .selectFrom('responses')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('dataset_id', '=', datasetId)
    .where('user_id', '=', userId)
    .groupBy('status')
    .execute();
  const counts = { draft: 0, submitted: 0, discarded: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

