import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp, Uuid } from './common.js';

/** Contract §2.12: the events a webhook may subscribe to. */
export const WEBHOOK_EVENTS = [
  'dataset.created',
  'dataset.updated',
  'dataset.deleted',
  'dataset.published',
  'record.created',
  'record.updated',
  'record.deleted',
  'record.completed',
  'response.created',
  'response.updated',
  'response.deleted',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WebhookEventName = Type.Unsafe<WebhookEvent>({ type: 'string', enum: [...WEBHOOK_EVENTS] });

/** An absolute http(s) URL with a host (pydantic `HttpUrl`, at most 2083 characters). */
export const HttpUrl = Type.String({ pattern: '^[hH][tT][tT][pP][sS]?://[^\\s/?#]+[^\\s]*$', maxLength: 2083 });

export const WebhookEvents = Type.Array(WebhookEventName, { minItems: 1, uniqueItems: true });

export const Webhook = Type.Object({
  id: Uuid,
  url: Type.String(),
  secret: Type.String(),
  events: Type.Array(WebhookEventName),
  enabled: Type.Boolean(),
  description: Type.Union([Type.String(), Type.Null()]),
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type Webhook = Static<typeof Webhook>;

/** `POST /webhooks`; the SDK also sends `secret`, which is ignored (the server generates it). */
export const WebhookCreateBody = Type.Object({
  url: HttpUrl,
  events: WebhookEvents,
  description: Nullable(Type.String({ minLength: 1, maxLength: 1000 })),
});
export type WebhookCreateBody = Static<typeof WebhookCreateBody>;

/** `PATCH /webhooks/{webhook_id}`: `url`, `events`, `enabled` must not be `null`. */
export const WebhookUpdateBody = Type.Object({
  url: Type.Optional(HttpUrl),
  events: Type.Optional(WebhookEvents),
  enabled: Type.Optional(Type.Boolean()),
  description: Nullable(Type.String({ minLength: 1, maxLength: 1000 })),
});
export type WebhookUpdateBody = Static<typeof WebhookUpdateBody>;

export const WebhookIdParams = Type.Object({ webhook_id: Uuid });
export type WebhookIdParams = Static<typeof WebhookIdParams>;
