import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { WebhookCreateBody, WebhookUpdateBody } from '@scholia/shared/contract';
import { NotFoundError, UnprocessableError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { nowTimestamp } from '../../lib/time.js';
import { toFlag, toJson } from '../../storage/json.js';
import { SERVER_VERSION } from '../../lib/version.js';
import { deleteDeliveriesOf, listDeliveries } from '../../storage/repositories/webhook-deliveries.repository.js';
import * as webhooks from '../../storage/repositories/webhooks.repository.js';
import type { Tables, WebhookDeliveryRow, WebhookRow } from '../../storage/tables.js';
import { queuePing } from '../../webhooks/webhook-events.js';
import { refusedWebhookTarget, type PrivateTargets } from '../../webhooks/webhook-target.js';

type Db = Kysely<Tables>;

/** Contract §6.4: at most 10 webhooks on a server. */
export const MAX_WEBHOOKS = 10;

/** The webhook with this id, or 404 `` Webhook with id `x` not found ``. */
export async function getWebhook(db: Db, id: string): Promise<WebhookRow> {
  const webhook = await webhooks.findWebhookById(db, id);
  if (!webhook) throw new NotFoundError(`Webhook with id \`${id}\` not found`);
  return webhook;
}

export const listWebhooks = (db: Db): Promise<WebhookRow[]> => webhooks.listWebhooks(db);

/**
 * Creates an enabled webhook with a server-made secret (Standard Webhooks: base64 of 64 random
 * bytes); a client-sent `secret` is ignored. A target the server would never send to is refused.
 */
export async function createWebhook(db: Db, input: WebhookCreateBody, allowed: PrivateTargets): Promise<WebhookRow> {
  await checkTarget(input.url, allowed);
  return db.transaction().execute(async (trx) => {
    if ((await webhooks.countWebhooks(trx)) >= MAX_WEBHOOKS) {
      throw new UnprocessableError(`You can't create more than ${MAX_WEBHOOKS} webhooks. Please delete some of them first`);
    }
    const now = nowTimestamp();
    return webhooks.insertWebhook(trx, {
      id: newId(),
      url: input.url,
      secret: randomBytes(64).toString('base64'),
      events: toJson(input.events),
      enabled: toFlag(true),
      description: input.description ?? null,
      sending_by: null,
      sending_since: null,
      served_at: null,
      inserted_at: now,
      updated_at: now,
    });
  });
}

/** Applies the keys present in the body; `description: null` clears it. A new URL is checked as on create. */
export async function updateWebhook(db: Db, webhook: WebhookRow, input: WebhookUpdateBody, allowed: PrivateTargets): Promise<WebhookRow> {
  if (input.url !== undefined) await checkTarget(input.url, allowed);
  const changes: Partial<WebhookRow> = {};
  if (input.url !== undefined) changes.url = input.url;
  if (input.events !== undefined) changes.events = toJson(input.events);
  if (input.enabled !== undefined) changes.enabled = toFlag(input.enabled);
  if (input.description !== undefined) changes.description = input.description;
  changes.updated_at = nowTimestamp();
  await webhooks.updateWebhook(db, webhook.id, changes);
  return { ...webhook, ...changes };
}

/** Deliveries to a loopback or private address fail without a try: say so when the URL is saved. */
async function checkTarget(url: string, allowed: PrivateTargets): Promise<void> {
  const refusal = await refusedWebhookTarget(url, allowed);
  if (refusal !== undefined) throw new UnprocessableError(refusal);
}

/** Returns the deleted row; its queued deliveries and delivery log go with it. */
export async function deleteWebhook(db: Db, webhook: WebhookRow): Promise<WebhookRow> {
  await db.transaction().execute(async (trx) => {
    await deleteDeliveriesOf(trx, webhook.id);
    await webhooks.deleteWebhook(trx, webhook.id);
  });
  return webhook;
}

/** Queues a signed `ping` event; it is sent in the background like every event, and logged. */
export const pingWebhook = (db: Db, webhook: WebhookRow): Promise<void> => queuePing(db, webhook, SERVER_VERSION);

/** How many deliveries the log route returns, newest first. */
const DELIVERY_LOG_LIMIT = 100;

export const listWebhookDeliveries = (db: Db, webhook: WebhookRow): Promise<WebhookDeliveryRow[]> =>
  listDeliveries(db, webhook.id, DELIVERY_LOG_LIMIT);
