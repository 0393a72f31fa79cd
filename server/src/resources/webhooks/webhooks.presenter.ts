import type { Webhook, WebhookEvent } from '@scholia/shared/contract';
import { presentTimestamp } from '../../lib/time.js';
import { fromFlag, fromJson } from '../../storage/json.js';
import type { WebhookRow } from '../../storage/tables.js';

/** Contract §2.12: every key of a webhook, the signing secret included (owners only see it). */
export function presentWebhook(webhook: WebhookRow): Webhook {
  return {
    id: webhook.id,
    url: webhook.url,
    secret: webhook.secret,
    events: fromJson<WebhookEvent[]>(webhook.events),
    enabled: fromFlag(webhook.enabled),
    description: webhook.description,
    inserted_at: presentTimestamp(webhook.inserted_at),
    updated_at: presentTimestamp(webhook.updated_at),
  };
}
