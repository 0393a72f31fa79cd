import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import type { WebhookEvent } from '@scholia/shared/contract';
import { nowTimestamp } from '../lib/time.js';
import { fromFlag, fromJson } from '../storage/json.js';
import { insertDeliveries } from '../storage/repositories/webhook-deliveries.repository.js';
import { listWebhooks } from '../storage/repositories/webhooks.repository.js';
import type { Tables, WebhookDeliveryRow, WebhookRow } from '../storage/tables.js';
import { newMessageId } from './webhook-signature.js';

/** Wakes this process's deliverer when deliveries are queued (others find them at their next poll). */
export const webhookSignals = new EventEmitter();

type EventType = WebhookEvent | 'ping';

/**
 * Queues one delivery per event and subscribed, enabled webhook, in `db`'s transaction: the events
 * go out when the change that raised them is committed, and never when it is rolled back. `data`
 * is built only when some webhook listens, so writes cost one small read when none does.
 */
export async function raiseWebhookEvents(
  db: Kysely<Tables>,
  type: WebhookEvent,
  data: () => Promise<unknown[]> | unknown[],
  /** The enabled webhooks, when the caller raises several events in one change and has read them once. */
  enabled?: WebhookRow[],
): Promise<void> {
  const subscribed = (enabled ?? (await enabledWebhooks(db))).filter((webhook) => fromJson<string[]>(webhook.events).includes(type));
  if (subscribed.length === 0) return;
  const items = await data();
  if (items.length === 0) return;
  await queueDeliveries(db, subscribed, type, items);
}

/** The webhooks that receive events. */
export async function enabledWebhooks(db: Kysely<Tables>): Promise<WebhookRow[]> {
  return (await listWebhooks(db)).filter((webhook) => fromFlag(webhook.enabled));
}

/** The ping event (`POST /webhooks/{id}/ping`), queued like any other so it is signed, retried and logged. */
export async function queuePing(db: Kysely<Tables>, webhook: WebhookRow, version: string): Promise<void> {
  await queueDeliveries(db, [webhook], 'ping', [{ agent: 'argilla-server', version }]);
}

async function queueDeliveries(db: Kysely<Tables>, webhooks: WebhookRow[], type: EventType, items: unknown[]): Promise<void> {
  const now = nowTimestamp();
  // The reference's form: microseconds always, and a `Z`.
  const timestamp = `${now}Z`;
  const rows: WebhookDeliveryRow[] = [];
  for (const webhook of webhooks) {
    for (const data of items) {
      rows.push({
        id: newMessageId(),
        webhook_id: webhook.id,
        event: type,
        body: JSON.stringify({ type, version: 1, timestamp, data }),
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        claimed_by: null,
        last_status_code: null,
        last_error: null,
        // Each its own: the deliverer sends a webhook's deliveries in `inserted_at` order.
        inserted_at: nowTimestamp(),
        updated_at: now,
      });
    }
  }
  for (let start = 0; start < rows.length; start += 100) await insertDeliveries(db, rows.slice(start, start + 100));
  // After the current statement; the deliverer also polls, so a wake-up before the commit loses nothing.
  setImmediate(() => webhookSignals.emit('queued'));
}
