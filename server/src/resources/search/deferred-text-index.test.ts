import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { createPrincipals, createWorkspace } from '../../../test/fixtures.js';
import { createSearchDataset, upsertRecords, type SearchDataset } from '../../../test/search-fixtures.js';
import { tableExists } from '../../../test/storage-probes.js';
import { OWNER, startTestServer, type TestServer } from '../../../test/test-server.js';
import type { Database } from '../../storage/dialect.js';
import { sqliteHandle } from '../../storage/open-database.js';
import { drainSqliteTextQueue } from '../../storage/search/text-index-drain.js';
import { foldQueuedChanges, TextIndexOp } from '../../storage/search/text-index-queue.js';

/**
 * SQLite indexes text after the write commits (storage/search/text-indexer.ts). Here the server's
 * indexer is off and the queue is applied by hand, a few changes at a time, to see every state a
 * search can meet while the queue drains. PostgreSQL indexes in the write.
 */
let server: TestServer;
let owner: TestApi;
let ds: SearchDataset;

const onPostgres = (process.env.SCHOLIA_TEST_DATABASE_URL ?? '').startsWith('postgres');
const drain = async (database: Database, changes: number) => drainSqliteTextQueue(sqliteHandle(database.db), changes);

async function drainAll(database: Database, step = 1_000): Promise<void> {
  while ((await drain(database, step)).changes > 0);
}

/** external ids of the records a text search finds, and its total. */
async function found(api: TestApi, datasetId: string, q: string): Promise<{ ids: string[]; total: number }> {
  const res = await api.post(`/datasets/${datasetId}/records/search?limit=1000`, { query: { text: { q } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ids: res.body.items.map((item: { record: { external_id: string } }) => item.record.external_id), total: res.body.total };
}

beforeAll(async () => {
  server = await startTestServer({ textIndexer: false });
  const api = new TestApi(server.url);
  owner = api.as({ apiKey: OWNER.apiKey });
  const p = await createPrincipals(api);
  ds = await createSearchDataset(api, p.workspace.id);
});
afterAll(async () => server?.close());

describe.skipIf(onPostgres)('text indexing after the write', () => {
  it('acknowledges a write before its words are indexed; the queue makes them searchable', async () => {
    await upsertRecords(owner, ds.id, Array.from({ length: 30 }, (_, i) => ({ external_id: `a${i}`, fields: { text: `alpha beta a${i}` } })));
    expect((await found(owner, ds.id, 'alpha')).total).toBe(0);
    await drainAll(server.app.database);
    const after = await found(owner, ds.id, 'alpha');
    expect(after.total).toBe(30);
    expect(after.ids.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `a${i}`).sort());
    // Applied rows leave the queue with the next write: it holds only what is not indexed yet.
    await upsertRecords(owner, ds.id, [{ external_id: 'later', fields: { text: 'later words' } }]);
    const queued = await server.app.database.db.selectFrom('text_index_queue').select('rid').execute();
    expect(queued).toHaveLength(1);
    await drainAll(server.app.database);
  });

  it('while the queue drains, no record is missing and none shows under two versions of its text', async () => {
    const { database } = server.app;
    const kept = Array.from({ length: 25 }, (_, i) => `a${i}`);
    const gone = Array.from({ length: 5 }, (_, i) => `a${25 + i}`);
    // Every kept record's text changes (beta → gamma), five are deleted, five arrive.
    await upsertRecords(owner, ds.id, kept.map((id) => ({ external_id: id, fields: { text: `alpha gamma ${id}` } })));
    const goneIds = (await found(owner, ds.id, gone.join(' | '))).ids;
    expect(goneIds.sort()).toEqual([...gone].sort());
    const stored = await owner.get(`/datasets/${ds.id}/records?limit=1000`);
    const idOf = new Map(stored.body.items.map((r: { id: string; external_id: string }) => [r.external_id, r.id]));
    expect((await owner.delete(`/datasets/${ds.id}/records?ids=${gone.map((e) => idOf.get(e)).join(',')}`)).status).toBe(204);
    await upsertRecords(owner, ds.id, Array.from({ length: 5 }, (_, i) => ({ external_id: `n${i}`, fields: { text: `alpha beta n${i}` } })));

    let steps = 0;
    for (;;) {
      const alpha = await found(owner, ds.id, 'alpha');
      expect(new Set(alpha.ids).size, 'a record listed twice').toBe(alpha.ids.length);
      expect(alpha.ids.filter((id) => kept.includes(id)).sort(), 'a kept record missing').toEqual([...kept].sort());
      expect(alpha.ids.filter((id) => gone.includes(id)), 'a deleted record listed').toEqual([]);
      const beta = (await found(owner, ds.id, 'beta')).ids.filter((id) => kept.includes(id));
      const gamma = (await found(owner, ds.id, 'gamma')).ids.filter((id) => kept.includes(id));
      expect([...beta, ...gamma].sort(), 'each kept record under exactly one version').toEqual([...kept].sort());
      if ((await drain(database, 4)).changes === 0) break;
      steps += 1;
    }
    expect(steps).toBeGreaterThan(5);
    const final = await found(owner, ds.id, 'alpha');
    expect(final.ids.sort()).toEqual([...kept, ...Array.from({ length: 5 }, (_, i) => `n${i}`)].sort());
    expect(final.total).toBe(30);
    expect((await found(owner, ds.id, 'beta')).ids.sort()).toEqual(Array.from({ length: 5 }, (_, i) => `n${i}`).sort());
    expect((await found(owner, ds.id, 'gamma')).ids.sort()).toEqual([...kept].sort());
  });

  it('a deleted dataset takes its queued changes and its index with it', async () => {
    const { database } = server.app;
    const other = await createSearchDataset(new TestApi(server.url), (await createWorkspace(new TestApi(server.url))).id);
    const table = `fts_${other.id.replace(/-/g, '')}`;
    await upsertRecords(owner, other.id, [{ external_id: 'x', fields: { text: 'omega' } }]);
    await drainAll(database);
    expect(await tableExists(database, table)).toBe(true);
    await upsertRecords(owner, other.id, [{ external_id: 'y', fields: { text: 'omega' } }]);
    expect((await owner.delete(`/datasets/${other.id}`)).status).toBe(200);
    await drainAll(database);
    expect(await tableExists(database, table)).toBe(false);
  });
});

describe('folding a batch of queued changes', () => {
  const { insert, update, remove, drop } = TextIndexOp;
  it('indexes a record once from its latest fields and replaces only what was indexed before', () => {
    const folded = foldQueuedChanges([
      [1, 'd', 1, insert],
      [2, 'd', 1, update], // new and changed in one batch: nothing to replace
      [3, 'd', 2, update],
      [4, 'd', 3, insert],
      [5, 'd', 3, remove], // never indexed: nothing to do
      [6, 'd', 4, update],
      [7, 'd', 4, remove],
      [8, 'e', 9, insert],
      [9, 'e', null, drop],
    ]);
    expect(folded).toEqual([
      { datasetId: 'd', drop: false, indexed: [1, 2], replaced: [2], removed: [4] },
      { datasetId: 'e', drop: true, indexed: [], replaced: [], removed: [] },
    ]);
  });
});

describe.skipIf(onPostgres)('a crash or restart with changes still queued', () => {
  it('indexes them when the server starts again', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-text-queue-'));
    let first: TestServer | undefined = await startTestServer({ dataDir, textIndexer: false });
    let second: TestServer | undefined;
    try {
      const api = new TestApi(first.url).as({ apiKey: OWNER.apiKey });
      const workspace = await createWorkspace(new TestApi(first.url));
      const dataset = await createSearchDataset(new TestApi(first.url), workspace.id);
      await upsertRecords(api, dataset.id, Array.from({ length: 300 }, (_, i) => ({ external_id: `r${i}`, fields: { text: `queued words r${i}` } })));
      await first.close();
      first = undefined;
      second = await startTestServer({ dataDir });
      // The search waits for the queue the new server found at start.
      const result = await found(new TestApi(second.url).as({ apiKey: OWNER.apiKey }), dataset.id, 'queued');
      expect(result.total).toBe(300);
      expect(new Set(result.ids).size).toBe(300);
    } finally {
      await first?.close();
      await second?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.runIf(onPostgres)('text indexing in the write (PostgreSQL)', () => {
  it('finds a record by its words as soon as its write is acknowledged, and its new words after an update', async () => {
    await upsertRecords(owner, ds.id, [{ external_id: 'pg1', fields: { text: 'lambda words' } }]);
    expect((await found(owner, ds.id, 'lambda')).ids).toEqual(['pg1']);
    await upsertRecords(owner, ds.id, [{ external_id: 'pg1', fields: { text: 'kappa words' } }]);
    expect((await found(owner, ds.id, 'lambda')).ids).toEqual([]);
    expect((await found(owner, ds.id, 'kappa')).ids).toEqual(['pg1']);
  });
});
