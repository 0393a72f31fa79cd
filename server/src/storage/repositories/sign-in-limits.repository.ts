import type { Kysely } from 'kysely';
import type { SignInLimitRow, Tables } from '../tables.js';

type Db = Kysely<Tables>;

/**
 * Counts one more attempt on `key` in its fixed window (one statement, so concurrent attempts
 * from any process each count): the count so far and when the window ends. A window that ended
 * starts afresh with this attempt, ending `windowMs` from `now`.
 */
export async function countInWindow(db: Db, key: string, now: number, windowMs: number): Promise<{ count: number; endsAt: number }> {
  const row = await db
    .insertInto('sign_in_limits')
    .values({ key, count: 1, not_before: 0, expires_at: now + windowMs })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet((eb) => ({
        count: eb.case().when('sign_in_limits.expires_at', '<=', now).then(1).else(eb('sign_in_limits.count', '+', 1)).end(),
        expires_at: eb.case().when('sign_in_limits.expires_at', '<=', now).then(now + windowMs).else(eb.ref('sign_in_limits.expires_at')).end(),
      })),
    )
    .returning(['count', 'expires_at'])
    .executeTakeFirstOrThrow();
  return { count: row.count, endsAt: row.expires_at };
}

/**
 * Reads `key`'s row locked for the rest of the transaction `trx` (created empty, all zeros, when
 * missing), so attempts from every process on one key are decided one after the other.
 */
export async function lockSignInLimit(trx: Db, key: string): Promise<SignInLimitRow> {
  return trx
    .insertInto('sign_in_limits')
    .values({ key, count: 0, not_before: 0, expires_at: 0 })
    // A no-op update takes the row lock and returns the row as it stands.
    .onConflict((conflict) => conflict.column('key').doUpdateSet((eb) => ({ key: eb.ref('excluded.key') })))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateSignInLimit(db: Db, row: SignInLimitRow): Promise<void> {
  await db.updateTable('sign_in_limits').set({ count: row.count, not_before: row.not_before, expires_at: row.expires_at }).where('key', '=', row.key).execute();
}

export async function deleteSignInLimit(db: Db, key: string): Promise<void> {
  await db.deleteFrom('sign_in_limits').where('key', '=', key).execute();
}

export async function deleteExpiredSignInLimits(db: Db, now: number): Promise<void> {
  await db.deleteFrom('sign_in_limits').where('expires_at', '<', now).execute();
}
