import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { nowTimestamp } from '../lib/time.js';
import { MAX_WEBHOOKS } from '../resources/webhooks/webhooks.service.js';
import {
  claimNextDelivery,
  endTurn,
  type ClaimedDelivery,
  pruneFinishedDeliveries,
  recordAttempt,
  releaseStaleDeliveries,
} from '../storage/repositories/webhook-deliveries.repository.js';
import { fromFlag } from '../storage/json.js';
import type { Tables, WebhookDeliveryRow, WebhookRow } from '../storage/tables.js';
import { webhookSignals } from './webhook-events.js';
import { webhookHeaders } from './webhook-signature.js';
import { postWebhook, WebhookTargetRefused, type PrivateTargets } from './webhook-target.js';

/**
 * Sends queued webhook deliveries in the background, never in the request that raised them.
 * A failed attempt (no answer, or not 2xx) is retried after a growing pause; after the last one
 * the delivery is `failed`. A delivery left `sending` by a process that died is sent again.
 * Webhooks take turns: each has at most one delivery in flight (across processes), and the one
 * that waited longest goes next, so a slow or failing target holds up only its own deliveries.
 */

/** Pauses before each retry (ms): the n-th failure waits retryDelaysMs[n - 1]; six retries over about 9 hours. */
let retryDelaysMs = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000];
/** A `sending` delivery older than this was claimed by a process that stopped (the send timeout is 20 s). */
const STALE_AFTER_MS = 120_000;
const POLL_MS = 1_000;
/**
 * As many sends at once as an installation may have webhooks: with one in flight per webhook,
 * a webhook with work due never waits for a sender while others' targets are slow.
 */
const CONCURRENT_SENDS = MAX_WEBHOOKS;
/** Finished deliveries kept per webhook as its log. */
const LOG_SIZE = 100;
const PRUNE_EVERY = 10;

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
  /** Set by a wake-up that came while no one waited: look again before sleeping. */
  let woken = false;
  const onQueued = () => {
    woken = true;
    waiting.forEach((wake) => wake());
  };
  webhookSignals.on('queued', onQueued);

  /** Finished deliveries per webhook since this process last trimmed its log. */
  const sincePruned = new Map<string, number>();

  /** Sends one delivery and records the attempt, then hands the webhook's turn back. */
  async function take({ webhook, delivery }: ClaimedDelivery): Promise<void> {
    try {
      await send(webhook, delivery);
    } finally {
      await endTurn(db, webhook.id, workerId);
    }
  }

  async function send(webhook: WebhookRow, delivery: WebhookDeliveryRow): Promise<void> {
    const attempts = delivery.attempts + 1;
    if (!fromFlag(webhook.enabled)) {
      await recordAttempt(db, delivery, workerId, { ...finished('failed', attempts), last_status_code: null, last_error: 'The webhook is disabled' });
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
    // Trimmed every PRUNE_EVERY deliveries, not after each: the log may run a few over LOG_SIZE.
    const finishedSince = (sincePruned.get(webhook.id) ?? 0) + 1;
    sincePruned.set(webhook.id, finishedSince % PRUNE_EVERY);
    if (finishedSince === PRUNE_EVERY) await pruneFinishedDeliveries(db, webhook.id, LOG_SIZE);
  }

  const inFlight = new Set<Promise<void>>();

  let releasedAt = 0;

  /** Claims turns while senders are free and webhooks have work due. */
  async function dispatch(): Promise<void> {
    if (Date.now() - releasedAt >= POLL_MS) {
      await releaseStaleDeliveries(db, timestampIn(-STALE_AFTER_MS));
      releasedAt = Date.now();
    }
    while (!stopped && inFlight.size < CONCURRENT_SENDS) {
      const claimed = await claimNextDelivery(db, workerId, nowTimestamp(), timestampIn(-STALE_AFTER_MS));
      if (!claimed) return;
      const sending: Promise<void> = take(claimed)
        .catch((failure) => log.warn({ err: failure, delivery: claimed.delivery.id }, 'webhook deliverer: database error; trying again'))
        .finally(() => {
          inFlight.delete(sending);
          // Its webhook may have more due, and a sender is free again.
          onQueued();
        });
      inFlight.add(sending);
    }
  }

  async function run(): Promise<void> {
    while (!stopped) {
      woken = false;
      try {
        await dispatch();
      } catch (failure) {
        log.warn({ err: failure }, 'webhook deliverer: database error; trying again');
      }
      if (stopped) break;
      if (woken) continue;
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
    await Promise.all(inFlight);
  }

  const running = run();

  return {
    async stop() {
      stopped = true;
      stopping.abort();
      onQueued();
      webhookSignals.off('queued', onQueued);
      await running;
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
