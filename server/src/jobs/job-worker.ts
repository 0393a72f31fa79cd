import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../config.js';
import { nowTimestamp } from '../lib/time.js';
import type { Database } from '../storage/dialect.js';
import { fromJson } from '../storage/json.js';
import type { JobRow, Tables } from '../storage/tables.js';
import { claimNextJob, completeJob, jobSignals, requeueJob, SEALED_SECRETS_KEY, touchJob } from './job-queue.js';
import { openSecrets } from './job-secrets.js';
import { memoryRelease } from '../lib/memory-release.js';

/** What a job handler gets: its payload, decrypted secrets, the database and a stop signal. */
export interface JobContext {
  job: JobRow;
  payload: Record<string, unknown>;
  /** Secrets sealed at enqueue time (e.g. `token`); never logged, never stored in clear. */
  secrets: Record<string, string>;
  database: Database;
  config: AppConfig;
  /** Aborted when the worker stops; the job is then put back in the queue. */
  signal: AbortSignal;
  log: JobLogger;
}

export type JobHandler = (context: JobContext) => Promise<unknown>;

export interface JobLogger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface JobWorkerOptions {
  database: Database;
  config: AppConfig;
  handlers: Record<string, JobHandler>;
  log?: JobLogger;
  /** How often an idle worker looks for queued jobs (ms); in-process enqueues wake it at once. */
  pollIntervalMs?: number;
  /** How often a running job's heartbeat is written (ms). */
  heartbeatMs?: number;
  /** A `started` job whose heartbeat is older than this is taken as orphaned (ms). */
  staleAfterMs?: number;
}

export interface JobWorker {
  readonly id: string;
  /** Stops claiming, aborts the running job (it goes back to `queued`) and waits for the loop. */
  stop(): Promise<void>;
}

/** Worker ids of live workers in this process: a `started` job of this pid with another id is an orphan. */
const liveWorkerIds = new Set<string>();

const silentLog: JobLogger = { info() {}, error() {} };

/** Message stored on a job that was running when its process died. */
export const INTERRUPTED_JOB_ERROR = 'The job was interrupted: the worker running it stopped (server restart or crash)';

/**
 * Starts a worker loop in this process: it claims queued jobs one at a time, runs the handler of
 * their type and records the outcome. It first fails the jobs orphaned by a dead process, so no
 * job stays `started` forever after a crash.
 */
export function startJobWorker(options: JobWorkerOptions): JobWorker {
  const { database, config, handlers } = options;
  const { db } = database;
  const log = options.log ?? silentLog;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const heartbeatMs = options.heartbeatMs ?? 5000;
  const staleAfterMs = options.staleAfterMs ?? 60_000;
  const id = `${os.hostname()}|${process.pid}|${randomBytes(6).toString('hex')}`;
  const types = Object.keys(handlers);
  liveWorkerIds.add(id);

  let stopping = false;
  let current: AbortController | undefined;
  let wake: (() => void) | undefined;
  const onEnqueued = () => wake?.();
  jobSignals.on('enqueued', onEnqueued);

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  async function runJob(job: JobRow): Promise<void> {
    const controller = new AbortController();
    current = controller;
    const heartbeat = setInterval(() => void touchJob(db, job.id, id).catch(() => undefined), heartbeatMs);
    try {
      const payload = fromJson<Record<string, unknown>>(job.payload) ?? {};
      const sealed = payload[SEALED_SECRETS_KEY];
      const secrets = typeof sealed === 'string' ? openSecrets(config, sealed) : {};
      delete payload[SEALED_SECRETS_KEY];
      const handler = handlers[job.type];
      if (!handler) throw new Error(`No handler for job type ${job.type}`);
      log.info({ jobId: job.id, type: job.type }, 'job started');
      const result = await handler({ job, payload, secrets, database, config, signal: controller.signal, log });
      await completeJob(db, job, id, { status: 'finished', result });
      log.info({ jobId: job.id, type: job.type }, 'job finished');
    } catch (error) {
      if (stopping && controller.signal.aborted) {
        await requeueJob(db, job, id);
        log.info({ jobId: job.id }, 'job put back in the queue (worker stopping)');
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      await completeJob(db, job, id, { status: 'failed', error: message });
      log.error({ jobId: job.id, type: job.type, error: message }, 'job failed');
    } finally {
      clearInterval(heartbeat);
      current = undefined;
      memoryRelease.soon();
    }
  }

  const loop = (async () => {
    let lastRecovery = 0;
    while (!stopping) {
      try {
        if (Date.now() - lastRecovery > staleAfterMs / 2) {
          lastRecovery = Date.now();
          await failOrphanedJobs(db, { staleAfterMs });
        }
        const job = await claimNextJob(db, id, types, database.dialect);
        if (job) await runJob(job);
        else await sleep(pollIntervalMs);
      } catch (error) {
        if (stopping) break;
        log.error({ error: error instanceof Error ? error.message : String(error) }, 'job worker loop error');
        await sleep(pollIntervalMs);
      }
    }
  })();

  return {
    id,
    async stop() {
      stopping = true;
      jobSignals.off('enqueued', onEnqueued);
      current?.abort();
      wake?.();
      await loop;
      liveWorkerIds.delete(id);
    },
  };
}

/**
 * Marks failed every `started` job whose worker is gone: no worker id, a dead process on this
 * host, a worker of this process that no longer runs (app rebuilt in-process), or a heartbeat
 * older than `staleAfterMs` (another host). Returns the ids it failed.
 */
export async function failOrphanedJobs(db: Kysely<Tables>, options: { staleAfterMs?: number } = {}): Promise<string[]> {
  const staleAfterMs = options.staleAfterMs ?? 60_000;
  const started = await db.selectFrom('jobs').select(['id', 'worker_id', 'updated_at']).where('status', '=', 'started').execute();
  const cutoff = new Date(Date.now() - staleAfterMs).toISOString().slice(0, 23);
  const orphans = started.filter((job) => !job.worker_id || isWorkerGone(job.worker_id) || job.updated_at.slice(0, 23) < cutoff);
  for (const job of orphans) {
    await db
      .updateTable('jobs')
      .set({ status: 'failed', error: INTERRUPTED_JOB_ERROR, updated_at: nowTimestamp() })
      .where('id', '=', job.id)
      .where('status', '=', 'started')
      .execute();
  }
  return orphans.map((j) => j.id);
}

function isWorkerGone(workerId: string): boolean {
  const [host, pidText] = workerId.split('|');
  if (host !== os.hostname()) return false; // other hosts: only the heartbeat tells
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return true;
  if (pid === process.pid) return !liveWorkerIds.has(workerId);
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
