import type { Kysely } from 'kysely';
import type { ResponseRow, Tables } from '../tables.js';
import { preparedQuery } from '../prepared-query.js';

type Db = Kysely<Tables>;

export const findResponseById = (db: Db, id: string): Promise<ResponseRow | undefined> =>
  db.selectFrom('responses').selectAll().where('id', '=', id).executeTakeFirst();

const responseOfUser = preparedQuery((db, recordId: string, userId: string) =>
  db.selectFrom('responses').selectAll().where('record_id', '=', recordId).where('user_id', '=', userId),
);
export const findResponseOfUser = (db: Db, recordId: string, userId: string): Promise<ResponseRow | undefined> =>
  responseOfUser.first(db, recordId, userId);

/**
 * Inserts the row unless the user already has a response to the record; false when one exists
 * (also one a concurrent transaction committed in between: PostgreSQL waits for it, and no
 * unique-violation error escapes).
 */
export async function insertResponse(db: Db, row: ResponseRow): Promise<boolean> {
  const inserted = await insertResponseQuery.first(
    db, row.id, row.record_id, row.dataset_id, row.user_id, row.status, row.values, row.inserted_at, row.updated_at,
  );
  return inserted !== undefined;
}

const insertResponseQuery = preparedQuery(
  (
    db,
    id: string,
    record_id: string,
    dataset_id: string,
    user_id: string,
    status: ResponseRow['status'],
    values: ResponseRow['values'],
    inserted_at: string,
    updated_at: string,
  ) =>
    db
      .insertInto('responses')
      .values({ id, record_id, dataset_id, user_id, status, values, inserted_at, updated_at })
      .onConflict((oc) => oc.columns(['record_id', 'user_id']).doNothing())
      .returning('id'),
);

export async function updateResponse(db: Db, id: string, changes: Pick<ResponseRow, 'status' | 'values' | 'updated_at'>): Promise<void> {
  await db.updateTable('responses').set(changes).where('id', '=', id).execute();
}

export async function deleteResponse(db: Db, id: string): Promise<void> {
  await db.deleteFrom('responses').where('id', '=', id).execute();
}
