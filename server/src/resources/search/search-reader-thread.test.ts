import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { createPrincipals, type Principals } from '../../../test/fixtures.js';
import { createSearchDataset, searchPage, upsertRecords, type SearchDataset } from '../../../test/search-fixtures.js';
import { seededRandom } from '../../../test/seeded-random.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { SqliteSearchReads } from '../../storage/search/search-reader.js';

/**
 * A search whose statements run on the reader thread (storage/search/search-reader.ts) answers as
 * one on the server's own connection: two servers hold the same records, one sending every search
 * statement to the thread, the other none.
 */
const onPostgres = (process.env.SCHOLIA_TEST_DATABASE_URL ?? '').startsWith('postgres');

interface Side {
  server: TestServer;
  p: Principals;
  ds: SearchDataset;
}
let onThread: Side;
let onConnection: Side;

const random = seededRandom(23);
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'alphabet'];
const records = Array.from({ length: 300 }, (_, i) => ({
  external_id: `t${i}`,
  fields: { text: Array.from({ length: 2 + Math.floor(random() * 5) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' '), context: `ctx ${i % 7}` },
  metadata: { n: Math.floor(random() * 20), score: Math.round(random() * 100) / 100, group: ['a', 'b', 'c'][i % 3] },
  vectors: { emb: [random(), random(), random()] },
}));

async function side(searchReader: false | 'every-statement'): Promise<Side> {
  const server = await startTestServer({ searchReader });
  const api = new TestApi(server.url);
  const p = await createPrincipals(api);
  const ds = await createSearchDataset(api, p.workspace.id);
  for (let start = 0; start < records.length; start += 150) await upsertRecords(api, ds.id, records.slice(start, start + 150));
  return { server, p, ds };
}

beforeAll(async () => {
  if (onPostgres) return;
  [onThread, onConnection] = await Promise.all([side('every-statement'), side(false)]);
});
afterAll(async () => Promise.all([onThread?.server.close(), onConnection?.server.close()]));

const range = (name: string, bounds: Record<string, unknown>) => ({ type: 'range', scope: { entity: 'metadata', metadata_property: name }, ...bounds });
const terms = (name: string, values: unknown[]) => ({ type: 'terms', scope: { entity: 'metadata', metadata_property: name }, values });
const byMetadata = (name: string, order: 'asc' | 'desc') => ({ scope: { entity: 'metadata', metadata_property: name }, order });

describe.skipIf(onPostgres)('search on the reader thread', () => {
  const cases: [string, Record<string, unknown>, string?][] = [
    ['text ranked by relevance', { query: { text: { q: 'alpha gamma' } } }],
    ['a phrase, a field, a page further on', { query: { text: { q: '"beta delta"', field: 'text' } } }, 'limit=5&offset=3'],
    ['fuzzy and prefix terms', { query: { text: { q: 'alpah~1 | omeg*' } } }],
    ['text with a filter', { query: { text: { q: 'beta' } }, filters: { and: [range('n', { ge: 3, le: 12 })] } }],
    ['text with a filter and a sort', { query: { text: { q: 'omega' } }, filters: { and: [terms('group', ['a', 'c'])] }, sort: [byMetadata('score', 'desc')] }],
    ['filters only', { filters: { and: [range('score', { ge: 0.2, le: 0.7 }), terms('group', ['b'])] } }, 'limit=20&offset=5'],
    ['sort only', { sort: [byMetadata('n', 'desc'), byMetadata('score', 'asc')] }, 'limit=30&offset=40'],
    ['similar to a vector, among text hits', { query: { text: { q: 'delta' }, vector: { name: 'emb', value: [0.5, 0.2, 0.9] } } }],
    ['similar to a vector, sorted', { query: { vector: { name: 'emb', value: [0.1, 0.8, 0.3] } }, sort: [byMetadata('n', 'asc')] }],
    ['nothing matches', { query: { text: { q: 'zebra' } } }],
  ];

  it.each(cases)('%s: the same matches, order, scores and total', async (_, body, query = 'limit=50') => {
    const reads = onThread.server.app.database.searchReads as SqliteSearchReads;
    const before = reads.statementsOnThread;
    const viaThread = await searchPage(onThread.p.owner, onThread.ds.id, body, query);
    const viaConnection = await searchPage(onConnection.p.owner, onConnection.ds.id, body, query);
    expect(viaThread).toEqual(viaConnection);
    expect(reads.statementsOnThread).toBeGreaterThan(before);
  });

  it('the cases find records: the comparison is not of empty pages', async () => {
    const page = await searchPage(onThread.p.owner, onThread.ds.id, { query: { text: { q: 'beta' } }, filters: { and: [range('n', { ge: 3, le: 12 })] } }, 'limit=50');
    expect(page.total).toBeGreaterThan(10);
    expect(page.items.length).toBeGreaterThan(10);
  });

  it("an annotator's own search (/me) answers the same", async () => {
    const body = { query: { text: { q: 'gamma' } }, filters: { and: [range('n', { le: 15 })] } };
    const mine = async ({ p, ds }: Side) => {
      const res = await p.annotatorMember.api.post(`/me/datasets/${ds.id}/records/search?limit=50`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { total: res.body.total, ids: res.body.items.map((item: { record: { external_id: string } }) => item.record.external_id) };
    };
    const viaThread = await mine(onThread);
    expect(viaThread.total).toBeGreaterThan(0);
    expect(viaThread).toEqual(await mine(onConnection));
  });
});
