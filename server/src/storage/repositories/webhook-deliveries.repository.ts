import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import type { Tables, WebhookDeliveryRow } from '../tables.js';

type Db = Kysely<Tables>;

export async function insertDeliveries(db: Db, rows: WebhookDeliveryRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_deliveries').values(rows).execute();
}

/**
 * Takes the oldest due pending delivery for `workerId`, or undefined. One statement, as the job
 * queue claims jobs: when processes race for a row only one UPDATE changes it (PostgreSQL skips
 * rows another process is claiming), so each event is sent by one process.
 */
export async function claimDueDelivery(db: Db, workerId: string, now: string): Promise<WebhookDeliveryRow | undefined> {
  const postgres = dialectOf(db) === 'postgres';
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const claimed = await db
      .updateTable('webhook_deliveries')
      .set({ status: 'sending', claimed_by: workerId, updated_at: now })
      .where('id', '=', (eb) => {
        const pick = eb
          .selectFrom('webhook_deliveries as due')
          .select('due.id')
          .where('due.status', '=', 'pending')
          .where('due.next_attempt_at', '<=', now)
          .orderBy('due.next_attempt_at')
          .limit(1);
        return postgres ? pick.forUpdate().skipLocked() : pick;
      })
      .where('status', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
    if (claimed) return claimed;
    const left = await db.selectFrom('webhook_deliveries').select('id').where('status', '=', 'pending').where('next_attempt_at', '<=', now).limit(1).executeTakeFirst();
    if (!left) return undefined;
  }
  return undefined;
}

/** Deliveries whose process died while sending them go back to pending. */
export async function releaseStaleDeliveries(db: Db, claimedBefore: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', claimed_by: null })
    .where('status', '=', 'sending')
    .where('updated_at', '<', claimedBefore)
    .execute();
}

/** Records an attempt's outcome; only the process that claimed the delivery may. */
export async function recordAttempt(
  db: Db,
  delivery: WebhookDeliveryRow,
  workerId: string,
  outcome: Pick<WebhookDeliveryRow, 'status' | 'attempts' | 'next_attempt_at' | 'last_status_code' | 'last_error' | 'updated_at'>,
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ ...outcome, claimed_by: null })
    .where('id', '=', delivery.id)
    .where('claimed_by', '=', workerId)
    .where('status', '=', 'sending')
    .execute();
}

/** The webhook's deliveries, newest first. */
export const listDeliveries = (db: Db, webhookId: string, limit: number) =>
  db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('inserted_at', 'desc').limit(limit).execute();

/** Keeps the newest `keep` finished deliveries of a webhook as its log; pending ones always stay. */
export async function pruneFinishedDeliveries(db: Db, webhookId: string, keep: number): Promise<void> {
  const cutoff = await db
    .selectFrom('webhook_deliveries')
    .select('inserted_at')
    .where('webhook_id', '=', webhookId)
    .where('status', 'in', ['delivered', 'failed'])
    .orderBy('inserted_at', 'desc')
    .offset(keep)
    .limit(1)
    .executeTakeFirst();
  if (!cutoff) return;
  await db
    .deleteFrom('webhook_deliveries')
    .where('webhook_id', '=', webhookId)
    .where('status', 'in', ['delivered', 'failed'])
    .where('inserted_at', '<=', cutoff.inserted_at)
    .execute();
}

export async function deleteDeliveriesOf(db: Db, webhookId: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', webhookId).execute();
}
