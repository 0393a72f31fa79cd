import type { Webhook, WebhookEvent } from '@scholia/shared/contract';
import { presentTimestamp } from '../../lib/time.js';
import { fromFlag, fromJson } from '../../storage/json.js';
import type { WebhookDeliveryRow, WebhookRow } from '../../storage/tables.js';

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

/** One entry of the delivery log (`GET /webhooks/{id}/deliveries`, a Scholia extension). */
export function presentWebhookDelivery(delivery: WebhookDeliveryRow) {
  return {
    id: delivery.id,
    event: delivery.event,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.last_status_code,
    last_error: delivery.last_error,
    next_attempt_at: delivery.status === 'pending' ? presentTimestamp(delivery.next_attempt_at) : null,
    inserted_at: presentTimestamp(delivery.inserted_at),
    updated_at: presentTimestamp(delivery.updated_at),
  };
}
