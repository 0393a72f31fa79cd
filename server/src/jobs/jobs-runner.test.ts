import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { readConfig } from '../config.js';
import { newId } from '../lib/ids.js';
import { nowTimestamp } from '../lib/time.js';
import { openDatabase } from '../storage/open-database.js';
import { claimNextJob, enqueueJob } from './job-queue.js';
import { openSecrets, sealSecrets } from './job-secrets.js';
import { INTERRUPTED_JOB_ERROR, startJobWorker } from './job-worker.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-jobs-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function tempDatabase() {
  const dir = tempDir();
  const database = await openDatabase(`sqlite:${path.join(dir, 'jobs.db')}`);
  cleanups.push(() => database.close());
  return { database, config: readConfig({ SCHOLIA_DATA_DIR: dir }) };
}

describe('job queue and worker', () => {
  it('each queued job is claimed by exactly one worker', async () => {
    const { database } = await tempDatabase();
    for (let i = 0; i < 20; i += 1) await enqueueJob(database.db, 'noop', { i });
    const claims = await Promise.all(Array.from({ length: 40 }, (_, i) => claimNextJob(database.db, `w${i % 4}`, ['noop'])));
    const ids = claims.filter(Boolean).map((j) => j!.id);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    const rows = await database.db.selectFrom('jobs').selectAll().execute();
    expect(rows.every((r) => r.status === 'started' && r.worker_id)).toBe(true);
  });

  it('runs handlers, records finished/failed and hands secrets to the handler only', async () => {
    const { database, config } = await tempDatabase();
    const seen: string[] = [];
    const worker = startJobWorker({
      database,
      config,
      pollIntervalMs: 20,
      handlers: {
        ok: async ({ payload, secrets }) => {
          seen.push(`${String(payload.n)}:${secrets.token}`);
          return { done: true };
        },
        boom: async () => {
          throw new Error('it broke');
        },
      },
    });
    cleanups.push(() => worker.stop());
    const ok = await enqueueJob(database.db, 'ok', { n: 1, sealed_secrets: sealSecrets(config, { token: 'hf_secret' }) });
    const boom = await enqueueJob(database.db, 'boom', {});
    await expect.poll(async () => (await database.db.selectFrom('jobs').select('status').where('id', '=', boom.id).executeTakeFirst())?.status).toBe('failed');
    await expect.poll(async () => (await database.db.selectFrom('jobs').select('status').where('id', '=', ok.id).executeTakeFirst())?.status).toBe('finished');
    expect(seen).toEqual(['1:hf_secret']);
    const rows = await database.db.selectFrom('jobs').selectAll().execute();
    expect(rows.find((r) => r.id === boom.id)?.error).toBe('it broke');
    expect(JSON.stringify(rows)).not.toContain('hf_secret');
    expect(rows.find((r) => r.id === ok.id)?.payload).toBe('{"n":1}'); // sealed secrets erased
  });

  it('sealed secrets open only with the same install secret', () => {
    const a = readConfig({ SCHOLIA_DATA_DIR: tempDir(), SCHOLIA_JWT_SECRET: 'one' });
    const b = readConfig({ SCHOLIA_DATA_DIR: tempDir(), SCHOLIA_JWT_SECRET: 'two' });
    const sealed = sealSecrets(a, { token: 'hf_x' });
    expect(sealed).not.toContain('hf_x');
    expect(openSecrets(a, sealed)).toEqual({ token: 'hf_x' });
    expect(() => openSecrets(b, sealed)).toThrow();
  });

  it('a stopping worker puts its running job back in the queue', async () => {
    const { database, config } = await tempDatabase();
    const worker = startJobWorker({
      database,
      config,
      pollIntervalMs: 20,
      handlers: {
        slow: ({ signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
      },
    });
    const job = await enqueueJob(database.db, 'slow', {});
    await expect.poll(async () => (await database.db.selectFrom('jobs').select('status').where('id', '=', job.id).executeTakeFirst())?.status).toBe('started');
    await worker.stop();
    const row = await database.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'queued', worker_id: null });
  });
});

describe('job durability across a restart', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('a job left `started` by a dead process is failed at boot; a queued one survives and runs', async () => {
    const dataDir = tempDir();
    server = await startTestServer({ dataDir });
    const { databaseUrl } = server;
    await server.close();
    server = undefined;

    // Simulate a crash: rows as a killed process would leave them.
    const database = await openDatabase(databaseUrl);
    const now = nowTimestamp();
    const orphan = newId();
    const ownerless = newId();
    const queued = newId();
    await database.db
      .insertInto('jobs')
      .values([
        { id: orphan, type: 'hub-import', status: 'started', payload: '{}', result: null, error: null, worker_id: `${os.hostname()}|999999999|dead`, inserted_at: now, updated_at: now },
        { id: ownerless, type: 'hub-export', status: 'started', payload: '{}', result: null, error: null, worker_id: null, inserted_at: now, updated_at: now },
        { id: queued, type: 'hub-export', status: 'queued', payload: '{"dataset_id":"00000000-0000-4000-8000-000000000000"}', result: null, error: null, worker_id: null, inserted_at: now, updated_at: now },
      ])
      .execute();
    await database.close();

    server = await startTestServer({ dataDir });
    const db = server.app.database.db;
    const status = async (id: string) => (await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
    expect(await status(orphan)).toMatchObject({ status: 'failed', error: INTERRUPTED_JOB_ERROR });
    expect((await status(ownerless)).status).toBe('failed');
    // The queued job is picked up by the new process's worker (it fails: no token, no dataset).
    await expect.poll(async () => (await status(queued)).status, { timeout: 10_000 }).toBe('failed');
  });
});
