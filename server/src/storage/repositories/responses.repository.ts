import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import type { ResponseRow, Tables } from '../tables.js';
import { preparedQuery } from '../prepared-query.js';
import { recordDatasetUsers, statusForSubmitted } from './records.repository.js';

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

/**
 * A new response, counted in its record at once: a submitted one adds one to the record's
 * submitted_count and sets its status (`completed` from `minSubmitted` on), and its author joins
 * the dataset's users unless `isDatasetUser`. False, with nothing written, when the user has a
 * response to the record already.
 *
 * Counting up rather than recounting needs no lock taken first: an UPDATE that waited for another
 * transaction's lock on the record adds to the count that transaction left. PostgreSQL runs it all
 * as one statement (one round trip and its own transaction, where the submit path spent five);
 * SQLite, in process, as its statements in a transaction.
 */
export async function insertCountedResponse(db: Db, row: ResponseRow, minSubmitted: number, isDatasetUser: boolean): Promise<boolean> {
  if (dialectOf(db) === 'postgres') return (await countedInsert(row, minSubmitted, isDatasetUser).execute(db)).rows.length > 0;
  const steps = async (trx: Db) => {
    if (!(await insertResponse(trx, row))) return false;
    if (row.status === 'submitted') await countSubmitted.all(trx, minSubmitted, row.record_id);
    if (!isDatasetUser) await recordDatasetUsers(trx, row.dataset_id, [row.user_id], row.inserted_at);
    return true;
  };
  return db.isTransaction ? steps(db) : db.transaction().execute(steps);
}

const countSubmitted = preparedQuery((db, min: number, recordId: string) =>
  db
    .updateTable('records')
    .set({ submitted_count: sql`submitted_count + 1`, status: statusForSubmitted(sql<number>`submitted_count + 1`, min) })
    .where('id', '=', recordId),
);

/** PostgreSQL: the insert, the count and the dataset user as one statement (data-modifying CTEs). */
function countedInsert(row: ResponseRow, min: number, isDatasetUser: boolean) {
  const joined = isDatasetUser
    ? sql``
    : sql`, joined AS (
        INSERT INTO dataset_users (dataset_id, user_id, inserted_at)
        SELECT dataset_id, user_id, inserted_at FROM inserted
        ON CONFLICT (dataset_id, user_id) DO NOTHING
        RETURNING user_id
      )`;
  return sql<{ record_id: string }>`WITH inserted AS (
      INSERT INTO responses (id, record_id, dataset_id, user_id, status, "values", inserted_at, updated_at)
      VALUES (${row.id}, ${row.record_id}, ${row.dataset_id}, ${row.user_id}, ${row.status}, ${row.values}, ${row.inserted_at}, ${row.updated_at})
      ON CONFLICT (record_id, user_id) DO NOTHING
      RETURNING record_id, dataset_id, user_id, status, inserted_at
    ), counted AS (
      UPDATE records
      SET submitted_count = records.submitted_count + 1, status = ${statusForSubmitted(sql<number>`records.submitted_count + 1`, min)}
      FROM inserted
      WHERE records.id = inserted.record_id AND inserted.status = 'submitted'
      RETURNING records.id
    )${joined}
    SELECT record_id FROM inserted`;
}

export async function updateResponse(db: Db, id: string, changes: Pick<ResponseRow, 'status' | 'values' | 'updated_at'>): Promise<void> {
  await db.updateTable('responses').set(changes).where('id', '=', id).execute();
}

export async function deleteResponse(db: Db, id: string): Promise<void> {
  await db.deleteFrom('responses').where('id', '=', id).execute();
}
