import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../test/api-client.js';
import { startFakeHub, type FakeHub } from '../../test/fake-hub/fake-hub.js';
import { createHubDataset } from '../../test/fake-hub/hub-fixtures.js';
import { OWNER, startTestServer, type TestServer } from '../../test/test-server.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const JOBS = 6;

let hub: FakeHub;
let server: TestServer;
let api: TestApi;
const workers: ChildProcess[] = [];

/** `src/worker.ts` as its own process on the server's database, the way SCHOLIA_JOB_WORKERS=external runs. */
function startWorkerProcess(): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      SCHOLIA_DATA_DIR: server.dataDir,
      SCHOLIA_DATABASE_URL: server.databaseUrl,
      SCHOLIA_HUB_URL: hub.url,
      SCHOLIA_DATASETS_SERVER_URL: hub.url,
    },
    stdio: 'ignore',
  });
  workers.push(child);
  return child;
}

beforeAll(async () => {
  hub = await startFakeHub();
  server = await startTestServer({ env: { SCHOLIA_JOB_WORKERS: 'external', SCHOLIA_HUB_URL: hub.url, SCHOLIA_DATASETS_SERVER_URL: hub.url } });
  api = new TestApi(server.url, { apiKey: OWNER.apiKey });
});
afterAll(async () => {
  for (const child of workers) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await server?.close();
  await hub?.close();
});

describe('job workers as separate processes (SCHOLIA_JOB_WORKERS=external)', () => {
  it('the server only queues; two worker processes run every job, each exactly once', { timeout: 60_000 }, async () => {
    const ds = await createHubDataset(server.app.database.db, { fields: [{ name: 'text', type: 'text' }] });
    const bulk = await api.put(`/datasets/${ds.id}/records/bulk`, { items: [{ external_id: 'r1', fields: { text: 'hello' } }] });
    expect(bulk.status).toBe(200);
    const jobIds: string[] = [];
    for (let i = 0; i < JOBS; i += 1) {
      const res = await api.post(`/datasets/${ds.id}/export`, { name: `alice/external-${i}`, token: 'hf_write_alice' });
      expect(res.status).toBe(202);
      jobIds.push(res.body.id);
    }
    // No worker runs inside the server: the jobs wait.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const statuses = async () => (await Promise.all(jobIds.map((id) => api.get(`/jobs/${id}`)))).map((r) => r.body.status as string);
    expect(await statuses()).toEqual(Array(JOBS).fill('queued'));

    const pids = [startWorkerProcess().pid, startWorkerProcess().pid].map(String);
    await expect.poll(statuses, { timeout: 45_000, interval: 250 }).toEqual(Array(JOBS).fill('finished'));

    const rows = await server.app.database.db.selectFrom('jobs').select(['id', 'worker_id']).where('id', 'in', jobIds).execute();
    for (const row of rows) expect(pids).toContain(row.worker_id?.split('|')[1]);
    // Each export ran once: one commit per repository.
    for (let i = 0; i < JOBS; i += 1) expect(hub.repos.get(`alice/external-${i}`)?.commits).toHaveLength(1);
  });
});
