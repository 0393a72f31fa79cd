import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { createPrincipals, type Principals } from '../../../test/fixtures.js';
import { createSearchDataset, searchPage, upsertRecords, type SearchDataset } from '../../../test/search-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { pageFromChampions, resetTextChampions, textChampionsSettled } from '../../storage/search/text-champions.js';
import { seededRandom } from '../../../test/seeded-random.js';

// Watch whether a search was answered from the champion lists, without changing what it does.
vi.mock('../../storage/search/text-champions.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../storage/search/text-champions.js')>();
  return { ...original, pageFromChampions: vi.fn(original.pageFromChampions) };
});

let server: TestServer;
let api: TestApi;
let p: Principals;
let ds: SearchDataset;

// Seeded, so a failure replays. Skewed word choice (frequent and rare terms), lengths from 1 to
// 40 words and repeated words, so ranks depend on both frequency and length; `Café`/`CAFE` check
// that case is folded and accents kept as the index does.
const random = seededRandom(5);
const WORDS = ['alpha', 'beta', 'Café', 'delta', 'CAFE', 'omega', 'sigma', 'kappa', 'lambda', 'rho', 'tau', 'zeta'];
const word = () => WORDS[Math.floor(random() ** 2 * WORDS.length)];
const sentence = (n: number) => Array.from({ length: n }, word).join(random() < 0.5 ? ' ' : ', ');
const records = Array.from({ length: 600 }, (_, i) => ({
  external_id: `t${i}`,
  fields: random() < 0.7 ? { text: sentence(1 + Math.floor(random() * 40)), context: sentence(1 + Math.floor(random() * 5)) } : { text: `${sentence(1 + Math.floor(random() * 12))}${i % 50 === 0 ? ' rare' : ''}` },
}));

const LIMITS = { minHits: 40, perTerm: 60, budget: 100_000 };

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url);
  p = await createPrincipals(api);
  ds = await createSearchDataset(api, p.workspace.id);
  for (let start = 0; start < records.length; start += 200) await upsertRecords(api, ds.id, records.slice(start, start + 200));
});
afterAll(async () => {
  resetTextChampions({ minRecords: 20_000, rebuildCooldownMs: 60_000 });
  await server.close();
});

const run = (body: Record<string, unknown>, query = 'limit=20') => searchPage(p.owner, ds.id, body, query);

/** The index's answer and the answer with champion lists built, and whether the lists answered. */
async function bothWays(body: Record<string, unknown>, query?: string) {
  resetTextChampions({ minRecords: Number.POSITIVE_INFINITY, rebuildCooldownMs: 0 }, LIMITS);
  const viaIndex = await run(body, query);
  resetTextChampions({ minRecords: 0, rebuildCooldownMs: 0 }, LIMITS);
  await run(body, query); // starts the build
  await textChampionsSettled();
  vi.mocked(pageFromChampions).mockClear();
  const viaChampions = await run(body, query);
  const answered = vi.mocked(pageFromChampions).mock.results.some((result) => result.value !== undefined);
  return { viaIndex, viaChampions, answered };
}

const text = (q: string, field?: string) => ({ query: { text: field ? { q, field } : { q } } });

describe('one-term text searches from champion lists (large datasets)', () => {
  const cases: [string, Record<string, unknown>, string?][] = [
    ['the most frequent term', text('alpha')],
    ['a less frequent term', text('delta')],
    ['a term written in another case', text('cafe')],
    ['the same term as typed by a user', text('  CAFÉ!  ')],
    ['a page further on', text('beta'), 'limit=15&offset=30'],
    ['the last page the list holds', text('alpha'), 'limit=10&offset=50'],
  ];
  it.each(cases)('%s: the same records, order, scores and total as the index', async (_, body, query) => {
    const { viaIndex, viaChampions, answered } = await bothWays(body, query);
    expect(answered).toBe(true);
    expect(viaChampions).toEqual(viaIndex);
  });

  it('the cases are not trivial: many hits, with different scores on the page', async () => {
    const { viaIndex } = await bothWays(text('alpha'), 'limit=60');
    expect(viaIndex.total).toBeGreaterThan(LIMITS.minHits);
    expect(new Set(viaIndex.items.map(([, score]: [string, number]) => score)).size).toBeGreaterThan(5);
  });

  it('searches the lists cannot answer go to the index, with the same results', async () => {
    for (const [body, query] of [
      [text('alpha'), 'limit=20&offset=55'], // past the list
      [text('alpha beta')], // two terms
      [text('alpha', 'text')], // one field
      [text('rare')], // in a few records: no list
    ] as [Record<string, unknown>, string?][]) {
      const { viaIndex, viaChampions, answered } = await bothWays(body, query);
      expect(answered).toBe(false);
      expect(viaChampions).toEqual(viaIndex);
    }
  });

  it('a field change makes the lists stale: the next search goes to the index and sees the new text', async () => {
    resetTextChampions({ minRecords: 0, rebuildCooldownMs: 60_000 }, LIMITS);
    await run(text('omega'));
    await textChampionsSettled();
    const before = await run(text('omega'), 'limit=1');
    const target = records.find((record) => !record.fields.text.includes('omega'))!;
    await upsertRecords(api, ds.id, [{ external_id: target.external_id, fields: { text: 'omega omega omega omega omega omega' } }]);
    vi.mocked(pageFromChampions).mockClear();
    const after = await run(text('omega'), 'limit=1');
    expect(after.items[0][0]).toBe(target.external_id);
    expect(after.total).toBe(before.total + 1);
    expect(vi.mocked(pageFromChampions)).not.toHaveBeenCalled();
  });
});
