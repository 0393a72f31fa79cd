import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import { newId } from '../lib/ids.js';
import { nowTimestamp } from '../lib/time.js';
import { toJson } from '../storage/json.js';
import type { DialectName } from '../storage/dialect.js';
import type { JobRow, Tables } from '../storage/tables.js';

/** Payload key holding sealed secrets (job-secrets.ts); erased when the job ends. */
export const SEALED_SECRETS_KEY = 'sealed_secrets';

/** In-process wake-up: a worker in this process polls at once instead of at its next tick. */
export const jobSignals = new EventEmitter();
jobSignals.setMaxListeners(100);

/**
 * Queues a background job (status `queued`) and returns its row. Any worker, in this process or
 * an external `src/worker.ts`, may claim it; exactly one does (see claimNextJob).
 */
export async function enqueueJob(db: Kysely<Tables>, type: string, payload: Record<string, unknown>): Promise<JobRow> {
  const now = nowTimestamp();
  const row: JobRow = {
    id: newId(),
    type,
    status: 'queued',
    payload: toJson(payload),
    result: null,
    error: null,
    worker_id: null,
    inserted_at: now,
    updated_at: now,
  };
  await db.insertInto('jobs').values(row).execute();
  jobSignals.emit('enqueued', row.id);
  return row;
}

/**
 * Claims the oldest queued job for `workerId`, or returns undefined when none is left.
 * Atomic: `UPDATE … WHERE id = (oldest queued) AND status = 'queued' RETURNING *`; when two
 * workers race for one job only one UPDATE changes the row and the other tries again.
 */
export async function claimNextJob(
  db: Kysely<Tables>,
  workerId: string,
  types: string[],
  dialect: DialectName = 'sqlite',
): Promise<JobRow | undefined> {
  if (types.length === 0) return undefined;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    // One statement: pick the oldest queued job and take it. SQLite runs it under its write lock;
    // PostgreSQL skips rows another worker is claiming (FOR UPDATE SKIP LOCKED).
    const claimed = await db
      .updateTable('jobs')
      .set({ status: 'started', worker_id: workerId, updated_at: nowTimestamp() })
      .where('id', '=', (eb) => {
        const pick = eb
          .selectFrom('jobs as candidate')
          .select('candidate.id')
          .where('candidate.status', '=', 'queued')
          .where('candidate.type', 'in', types)
          .orderBy('candidate.inserted_at')
          .limit(1);
        return dialect === 'postgres' ? pick.forUpdate().skipLocked() : pick;
      })
      .where('status', '=', 'queued')
      .returningAll()
      .executeTakeFirst();
    if (claimed) return claimed;
    const left = await db.selectFrom('jobs').select('id').where('status', '=', 'queued').where('type', 'in', types).limit(1).executeTakeFirst();
    if (!left) return undefined;
  }
  return undefined;
}

/** Marks a claimed job finished or failed, and erases its sealed secrets. Only its own worker may. */
export async function completeJob(
  db: Kysely<Tables>,
  job: JobRow,
  workerId: string,
  outcome: { status: 'finished'; result: unknown } | { status: 'failed'; error: string },
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({
      status: outcome.status,
      result: outcome.status === 'finished' ? toJson(outcome.result ?? null) : null,
      error: outcome.status === 'failed' ? outcome.error : null,
      payload: toJson(withoutSecrets(job.payload)),
      updated_at: nowTimestamp(),
    })
    .where('id', '=', job.id)
    .where('worker_id', '=', workerId)
    .where('status', '=', 'started')
    .execute();
}

/** Gives a claimed job back to the queue (graceful shutdown mid-run): the next worker resumes it. */
export async function requeueJob(db: Kysely<Tables>, job: JobRow, workerId: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ status: 'queued', worker_id: null, updated_at: nowTimestamp() })
    .where('id', '=', job.id)
    .where('worker_id', '=', workerId)
    .where('status', '=', 'started')
    .execute();
}

/**
 * Stores a running job's progress as its payload, so the worker that resumes it (after a graceful
 * stop put it back in the queue) continues from there. Only for jobs without sealed secrets.
 */
export async function saveJobProgress(db: Kysely<Tables>, job: JobRow, payload: Record<string, unknown>): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ payload: toJson(payload), updated_at: nowTimestamp() })
    .where('id', '=', job.id)
    .where('status', '=', 'started')
    .execute();
}

/** Heartbeat: a running job's `updated_at` moves so other processes can tell it is alive. */
export async function touchJob(db: Kysely<Tables>, jobId: string, workerId: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ updated_at: nowTimestamp() })
    .where('id', '=', jobId)
    .where('worker_id', '=', workerId)
    .where('status', '=', 'started')
    .execute();
}

function withoutSecrets(stored: unknown): Record<string, unknown> {
  const payload = (typeof stored === 'string' ? JSON.parse(stored) : stored) as Record<string, unknown>;
  const { [SEALED_SECRETS_KEY]: _sealed, ...rest } = payload ?? {};
  return rest;
}
