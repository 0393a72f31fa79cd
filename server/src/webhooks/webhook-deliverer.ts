import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { nowTimestamp } from '../lib/time.js';
import {
  claimDueDelivery,
  pruneFinishedDeliveries,
  recordAttempt,
  releaseStaleDeliveries,
} from '../storage/repositories/webhook-deliveries.repository.js';
import { findWebhookById } from '../storage/repositories/webhooks.repository.js';
import { fromFlag } from '../storage/json.js';
import type { Tables, WebhookDeliveryRow } from '../storage/tables.js';
import { webhookSignals } from './webhook-events.js';
import { webhookHeaders } from './webhook-signature.js';
import { postWebhook, WebhookTargetRefused, type PrivateTargets } from './webhook-target.js';

/**
 * Sends queued webhook deliveries in the background, never in the request that raised them.
 * A failed attempt (no answer, or not 2xx) is retried after a growing pause; after the last one
 * the delivery is `failed`. A delivery left `sending` by a process that died is sent again.
 */

/** Pauses before each retry (ms): the n-th failure waits retryDelaysMs[n - 1]; six retries over about 9 hours. */
let retryDelaysMs = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000];
/** A `sending` delivery older than this was claimed by a process that stopped (the send timeout is 20 s). */
const STALE_AFTER_MS = 120_000;
const POLL_MS = 1_000;
const CONCURRENT_SENDS = 4;
/** Finished deliveries kept per webhook as its log. */
const LOG_SIZE = 100;

/** Shorter pauses between retries (tests). */
export function setWebhookRetryDelays(delaysMs: number[]): void {
  retryDelaysMs = delaysMs;
}

export interface WebhookDeliverer {
  stop(): Promise<void>;
}

export interface WebhookDelivererOptions {
  db: Kysely<Tables>;
  /** Which loopback and private targets deliveries may reach. */
  allowedTargets: PrivateTargets;
  log: { warn(obj: object, msg?: string): void };
}

export function startWebhookDeliverer({ db, allowedTargets, log }: WebhookDelivererOptions): WebhookDeliverer {
  const workerId = `webhooks-${process.pid}-${randomBytes(4).toString('hex')}`;
  let stopped = false;
  const stopping = new AbortController();
  const waiting = new Set<() => void>();
  const onQueued = () => waiting.forEach((wake) => wake());
  webhookSignals.on('queued', onQueued);

  async function send(delivery: WebhookDeliveryRow): Promise<void> {
    const webhook = await findWebhookById(db, delivery.webhook_id);
    const attempts = delivery.attempts + 1;
    if (!webhook || !fromFlag(webhook.enabled)) {
      await recordAttempt(db, delivery, workerId, { ...finished('failed', attempts), last_status_code: null, last_error: webhook ? 'The webhook is disabled' : 'The webhook was deleted' });
      return;
    }
    let statusCode: number | null = null;
    let error: string | null = null;
    let retry = true;
    try {
      const headers = webhookHeaders(webhook.secret, delivery.id, delivery.body);
      statusCode = (await postWebhook(webhook.url, headers, delivery.body, { allowed: allowedTargets, signal: stopping.signal })).status;
      if (statusCode < 200 || statusCode >= 300) error = `The target answered ${statusCode}`;
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
      retry = !(failure instanceof WebhookTargetRefused);
    }
    if (stopped && error !== null) {
      // Cut off by the shutdown: not an attempt; the next process to run sends it.
      const { attempts: unchanged, next_attempt_at, last_status_code, last_error } = delivery;
      await recordAttempt(db, delivery, workerId, { status: 'pending', attempts: unchanged, next_attempt_at, last_status_code, last_error, updated_at: nowTimestamp() });
      return;
    }
    if (error === null) {
      await recordAttempt(db, delivery, workerId, { ...finished('delivered', attempts), last_status_code: statusCode, last_error: null });
    } else if (retry && attempts <= retryDelaysMs.length) {
      log.warn({ webhook: webhook.id, delivery: delivery.id, attempts, error }, 'webhook delivery failed; will retry');
      await recordAttempt(db, delivery, workerId, {
        status: 'pending',
        attempts,
        next_attempt_at: timestampIn(retryDelaysMs[attempts - 1]),
        last_status_code: statusCode,
        last_error: error,
        updated_at: nowTimestamp(),
      });
    } else {
      log.warn({ webhook: webhook.id, delivery: delivery.id, attempts, error }, 'webhook delivery failed');
      await recordAttempt(db, delivery, workerId, { ...finished('failed', attempts), last_status_code: statusCode, last_error: error });
    }
    await pruneFinishedDeliveries(db, webhook.id, LOG_SIZE);
  }

  /**
   * Several independent senders, so one slow target (up to the 20 s timeout per attempt) does not
   * hold up the others; each sends while deliveries are due, then waits for a poll or a wake-up.
   */
  async function sender(index: number): Promise<void> {
    while (!stopped) {
      try {
        if (index === 0) await releaseStaleDeliveries(db, timestampIn(-STALE_AFTER_MS));
        while (!stopped) {
          const delivery = await claimDueDelivery(db, workerId, nowTimestamp());
          if (!delivery) break;
          await send(delivery);
        }
      } catch (failure) {
        log.warn({ err: failure }, 'webhook deliverer: database error; trying again');
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waiting.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, POLL_MS);
        waiting.add(wake);
      });
    }
  }

  const senders = Promise.all(Array.from({ length: CONCURRENT_SENDS }, (_, index) => sender(index)));

  return {
    async stop() {
      stopped = true;
      stopping.abort();
      onQueued();
      webhookSignals.off('queued', onQueued);
      await senders;
    },
  };
}

function finished(status: 'delivered' | 'failed', attempts: number) {
  const now = nowTimestamp();
  return { status, attempts, next_attempt_at: now, updated_at: now };
}

/** A stored timestamp `ms` from now (same fixed-width form as nowTimestamp, so they compare as text). */
function timestampIn(ms: number): string {
  return `${new Date(Date.now() + ms).toISOString().slice(0, 23)}000`;
}
