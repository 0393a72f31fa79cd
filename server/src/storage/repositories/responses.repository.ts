import type { Kysely } from 'kysely';
import type { ResponseRow, Tables } from '../tables.js';

type Db = Kysely<Tables>;

export const findResponseById = (db: Db, id: string): Promise<ResponseRow | undefined> =>
  db.selectFrom('responses').selectAll().where('id', '=', id).executeTakeFirst();

export const findResponseOfUser = (db: Db, recordId: string, userId: string): Promise<ResponseRow | undefined> =>
  db.selectFrom('responses').selectAll().where('record_id', '=', recordId).where('user_id', '=', userId).executeTakeFirst();

/**
 * Inserts the row unless the user already has a response to the record; false when one exists
 * (also one a concurrent transaction committed in between: PostgreSQL waits for it, and no
 * unique-violation error escapes).
 */
export async function insertResponse(db: Db, row: ResponseRow): Promise<boolean> {
  const inserted = await db
    .insertInto('responses')
    .values(row)
    .onConflict((oc) => oc.columns(['record_id', 'user_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function updateResponse(db: Db, id: string, changes: Pick<ResponseRow, 'status' | 'values' | 'updated_at'>): Promise<void> {
  await db.updateTable('responses').set(changes).where('id', '=', id).execute();
}

export async function deleteResponse(db: Db, id: string): Promise<void> {
  await db.deleteFrom('responses').where('id', '=', id).execute();
}
