import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { createPrincipals } from '../../../test/fixtures.js';
import { createSearchDataset, upsertRecords, type SearchDataset } from '../../../test/search-fixtures.js';
import { OWNER, startTestServer, type TestServer } from '../../../test/test-server.js';
import { sqliteHandle } from '../open-database.js';
import { startSqliteTextIndexer, type TextIndexer } from './text-indexer.js';

/**
 * The SQLite indexer's thread comes and goes: it stops once idle (its memory goes back to the
 * system) and the next write starts it again, with nothing lost or indexed twice. The server's
 * own indexer is off; this one stops after 400 ms instead of the server's 30 s.
 */
let server: TestServer;
let owner: TestApi;
let ds: SearchDataset;
let indexer: TextIndexer & { running?: boolean };

const onPostgres = (process.env.SCHOLIA_TEST_DATABASE_URL ?? '').startsWith('postgres');
const until = async (condition: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  return condition();
};

async function totalFor(q: string): Promise<number> {
  const res = await owner.post(`/datasets/${ds.id}/records/search?limit=1`, { query: { text: { q } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.total;
}

describe.skipIf(onPostgres)('the text indexer thread', () => {
  beforeAll(async () => {
    server = await startTestServer({ textIndexer: false });
    const api = new TestApi(server.url);
    owner = api.as({ apiKey: OWNER.apiKey });
    ds = await createSearchDataset(api, (await createPrincipals(api)).workspace.id);
    indexer = startSqliteTextIndexer(sqliteHandle(server.app.database.db), { idleStopMs: 400 });
  });
  afterAll(async () => {
    await indexer?.close();
    await server?.close();
  });

  it('stops when idle and starts again for the next change, which becomes searchable', async () => {
    await upsertRecords(owner, ds.id, Array.from({ length: 40 }, (_, i) => ({ external_id: `first${i}`, fields: { text: `kestrel first${i}` } })));
    indexer.wake();
    expect(indexer.running).toBe(true);
    await indexer.caughtUp(ds.id);
    expect(await totalFor('kestrel')).toBe(40);

    expect(await until(() => indexer.running === false, 3_000)).toBe(true);

    await upsertRecords(owner, ds.id, Array.from({ length: 40 }, (_, i) => ({ external_id: `second${i}`, fields: { text: `kestrel osprey second${i}` } })));
    indexer.wake();
    const started = Date.now();
    await indexer.caughtUp(ds.id);
    // Well under the wait's 10 s bound: the new thread indexed them, the wait did not time out.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await totalFor('osprey')).toBe(40);
    expect(await totalFor('kestrel')).toBe(80);
  });

  it('is started by its poll for changes queued without a wake-up (another process, a crash)', async () => {
    expect(await until(() => indexer.running === false, 3_000)).toBe(true);
    await upsertRecords(owner, ds.id, [{ external_id: 'polled', fields: { text: 'heron polled' } }]);
    expect(await until(() => indexer.running === true, 2_000)).toBe(true);
    await indexer.caughtUp(ds.id);
    expect(await totalFor('heron')).toBe(1);
  });
});
