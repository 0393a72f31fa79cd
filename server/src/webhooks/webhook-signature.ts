import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing, as the `standardwebhooks` verifier the SDK's `webhook_listener` uses:
 * the key is the secret base64-decoded (after an optional `whsec_` prefix), the signature is
 * `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, the timestamp whole Unix seconds.
 */
export function signWebhookBody(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const signature = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${signature}`;
}

/** The headers of one delivery attempt, signed at send time so a retry is never too old to verify. */
export function webhookHeaders(secret: string, messageId: string, body: string, now = Date.now()): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhookBody(secret, messageId, timestamp, body),
  };
}

/** A message id as the reference makes them: `msg_` and 16 random URL-safe bytes. */
export const newMessageId = (): string => `msg_${randomBytes(16).toString('base64url')}`;
