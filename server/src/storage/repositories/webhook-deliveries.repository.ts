import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import type { Tables, WebhookDeliveryRow, WebhookRow } from '../tables.js';

type Db = Kysely<Tables>;

export async function insertDeliveries(db: Db, rows: WebhookDeliveryRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_deliveries').values(rows).execute();
}

/** A delivery claimed for sending, with its webhook as it was when its turn began. */
export interface ClaimedDelivery {
  webhook: WebhookRow;
  delivery: WebhookDeliveryRow;
}

/**
 * Claims a turn for `workerId`: the webhook that has gone longest without one, among those with a
 * due delivery and no delivery in flight, and that webhook's oldest due delivery; undefined when
 * no webhook is free with work due. A webhook has one delivery in flight at a time, across every
 * process: its turn is taken in one statement on its row (PostgreSQL skips rows another process is
 * claiming and re-checks the row it locks; SQLite runs one writing statement at a time). A turn
 * held since before `staleBefore` belongs to a process that stopped and may be taken over.
 * Hand the turn back with `endTurn` once the attempt is recorded.
 */
export async function claimNextDelivery(db: Db, workerId: string, now: string, staleBefore: string): Promise<ClaimedDelivery | undefined> {
  const postgres = dialectOf(db) === 'postgres';
  const waiting = () =>
    db
      .selectFrom('webhooks as free')
      .select('free.id')
      .where((w) => w.or([w('free.sending_by', 'is', null), w('free.sending_since', '<', staleBefore)]))
      .where((w) =>
        w.exists(
          w
            .selectFrom('webhook_deliveries as due')
            .select('due.id')
            .whereRef('due.webhook_id', '=', 'free.id')
            .where('due.status', '=', 'pending')
            .where('due.next_attempt_at', '<=', now),
        ),
      );
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const turn = await db
      .updateTable('webhooks')
      .set({ sending_by: workerId, sending_since: now, served_at: now })
      .where('id', '=', () => {
        // Never served first (NULL sorts first in SQLite, last in PostgreSQL: hence the coalesce).
        const pick = waiting().orderBy(sql`coalesce(free.served_at, '')`).orderBy('free.id').limit(1);
        return postgres ? pick.forUpdate().skipLocked() : pick;
      })
      .where((w) => w.or([w('sending_by', 'is', null), w('sending_since', '<', staleBefore)]))
      .returningAll()
      .executeTakeFirst();
    if (!turn) {
      // Another process took the webhook picked here between the pick and the update: look again.
      if (!(await waiting().limit(1).executeTakeFirst())) return undefined;
      continue;
    }
    // Within a webhook, first attempts go out in the order they were queued; a retry waits for its pause.
    const claimed = await db
      .updateTable('webhook_deliveries')
      .set({ status: 'sending', claimed_by: workerId, updated_at: now })
      .where('id', '=', (eb) =>
        eb
          .selectFrom('webhook_deliveries as next')
          .select('next.id')
          .where('next.webhook_id', '=', turn.id)
          .where('next.status', '=', 'pending')
          .where('next.next_attempt_at', '<=', now)
          .orderBy('next.inserted_at')
          .orderBy('next.id')
          .limit(1),
      )
      .where('status', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
    if (claimed) return { webhook: turn, delivery: claimed };
    await endTurn(db, turn.id, workerId);
  }
  return undefined;
}

/** Hands a webhook's turn back, so its next delivery may go (by any process). */
export async function endTurn(db: Db, webhookId: string, workerId: string): Promise<void> {
  await db.updateTable('webhooks').set({ sending_by: null, sending_since: null }).where('id', '=', webhookId).where('sending_by', '=', workerId).execute();
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
