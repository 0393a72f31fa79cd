import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_TIME_BUDGET_MS, TEXT_QUERY_MAX_CHARS, TEXT_QUERY_MAX_TERMS } from '../../src/lib/work-limits.js';
import { workSlotRoutes } from '../../src/plugins/app/user-work-slots.js';
import { SearchTimeBudgetExceeded, withinTimeBudget } from '../../src/storage/search/search-time-budget.js';
import { startTestServer, type TestServer } from '../test-server.js';
import { abusiveRequests, readerCycle, seedAbuseWorld, sendAbusive, type AbuseWorld } from './search-abuse.js';

/**
 * Several annotators flood the server with the most expensive searches, metrics and bulk reads they
 * can build while a well-behaved annotator reads pages and searches: every flood answer is a 2xx or
 * a 4xx (never a 5xx or no answer), the reader's answers are all right, the event loop is never held
 * long and memory stays bounded. The server runs in this process, so the loop measured is its loop.
 */
const FLOOD_MS = 8_000;
/** Requests each flooding annotator keeps under way: more than its work slots and queue hold. */
const PARALLEL_PER_ABUSER = 10;

let server: TestServer;
let world: AbuseWorld;

beforeAll(async () => {
  server = await startTestServer();
  world = await seedAbuseWorld(server.url, { records: 5_000, abusers: 3 });
}, 180_000);
afterAll(async () => server?.close());

describe('search and other input-proportional requests under a flood', () => {
  it('answers every flood request with 2xx/4xx while a well-behaved annotator gets right answers, the loop stays free and memory bounded', async () => {
    const requests = abusiveRequests();
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let retryAfterMissing = 0;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 100);
    const deadline = Date.now() + FLOOD_MS;
    loop.enable();

    const flood = async (abuser: number, lane: number) => {
      for (let k = lane; Date.now() < deadline; k += PARALLEL_PER_ABUSER) {
        const request = requests[(k + abuser) % requests.length];
        const answer = await sendAbusive(world.abusers[abuser], world.datasetId, request, 30_000);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 0 || answer.status >= 500) failures.push(`${request.name}: ${answer.status} ${JSON.stringify(answer.detail)}`);
        if (answer.status === 429 && !answer.retryAfter) retryAfterMissing += 1;
      }
    };
    const readerProblems: string[] = [];
    let readerCycles = 0;
    const read = async () => {
      for (let k = 0; Date.now() < deadline; k++) {
        const { problems } = await readerCycle(world, k);
        readerProblems.push(...problems);
        readerCycles += 1;
      }
    };
    await Promise.all([read(), ...world.abusers.flatMap((_, a) => Array.from({ length: PARALLEL_PER_ABUSER }, (_, lane) => flood(a, lane)))]);
    loop.disable();
    clearInterval(sampler);

    expect(failures).toEqual([]);
    expect(readerProblems).toEqual([]);
    expect(readerCycles).toBeGreaterThan(0);
    // The flood met each kind of refusal: over a bound (422) and over the work slots (429, with Retry-After).
    expect(statuses.get(422)).toBeGreaterThan(0);
    expect(statuses.get(429)).toBeGreaterThan(0);
    expect(retryAfterMissing).toBe(0);
    expect(loop.max / 1e6).toBeLessThan(1_000);
    expect((rssPeak - rssBefore) / 2 ** 20).toBeLessThan(500);
  }, 120_000);

  it('refuses text queries past the bounds with a detail stating them, and merges repeated terms', async () => {
    const search = (q: string) => world.reader.post(`/me/datasets/${world.datasetId}/records/search?limit=1`, { query: { text: { q } } });
    const long = await search('the '.repeat(TEXT_QUERY_MAX_CHARS));
    expect(long.status).toBe(422);
    expect(long.body.detail).toBe(`Text query is too long: ${TEXT_QUERY_MAX_CHARS * 4} characters, at most ${TEXT_QUERY_MAX_CHARS} are allowed.`);
    const many = await search(Array.from({ length: TEXT_QUERY_MAX_TERMS + 1 }, (_, i) => `w${i}`).join(' '));
    expect(many.status).toBe(422);
    expect(many.body.detail).toContain(`at most ${TEXT_QUERY_MAX_TERMS}`);
    // Repeats count once: the bound's worth of distinct terms, each said many times, is a search.
    const repeated = Array.from({ length: TEXT_QUERY_MAX_TERMS }, (_, i) => `w${i} W${i}`).join(' ');
    expect((await search(repeated)).status).toBe(200);
    const once = await search('record42');
    const often = await search('record42 RECORD42 '.repeat(50));
    expect(often.status).toBe(200);
    expect(often.body.total).toBe(1);
    expect(often.body.items[0].record.external_id).toBe(once.body.items[0].record.external_id);
    expect(often.body.items[0].query_score).toBeCloseTo(once.body.items[0].query_score, 6);
  });

  it('merges repeated filters and sort keys to the same answer as one of each', async () => {
    const search = (body: unknown) => world.reader.post(`/me/datasets/${world.datasetId}/records/search?limit=20&offset=3`, body);
    const range = (ge: number, le: number) => ({ type: 'range', scope: { entity: 'metadata', metadata_property: 'n' }, ge, le });
    const sortBy = (order: string) => ({ scope: { entity: 'metadata', metadata_property: 'score' }, order });
    const one = await search({ filters: { and: [range(100, 200)] }, sort: [sortBy('desc')] });
    const merged = await search({ filters: { and: [range(0, 900), range(100, 950), range(50, 200), range(100, 200)] }, sort: [sortBy('desc'), sortBy('asc'), sortBy('desc')] });
    expect(one.status).toBe(200);
    expect(merged.status).toBe(200);
    expect(merged.body.total).toBe(one.body.total);
    expect(merged.body.items.map((i: { record: { id: string } }) => i.record.id)).toEqual(one.body.items.map((i: { record: { id: string } }) => i.record.id));
    const empty = await search({ filters: { and: [range(0, 10), range(20, 30)] } });
    expect(empty.body.total).toBe(0);
  });

  it('stops a search past its time budget on PostgreSQL, with a typed error', async () => {
    const { db, dialect } = server.app.database;
    if (dialect !== 'postgres') {
      // SQLite cannot interrupt a statement: the work runs to its end, bounded by the input limits.
      await expect(withinTimeBudget(db, 1, async (q) => (await sql<{ one: number }>`SELECT 1 AS one`.execute(q)).rows[0].one)).resolves.toBe(1);
      return;
    }
    await expect(withinTimeBudget(db, 50, (q) => sql`SELECT pg_sleep(2)`.execute(q))).rejects.toBeInstanceOf(SearchTimeBudgetExceeded);
    await expect(withinTimeBudget(db, 5_000, async (q) => (await sql<{ one: number }>`SELECT 1 AS one`.execute(q)).rows[0].one)).resolves.toBe(1);
    // A search's own reader needs no transaction: its connections cancel a statement past the budget themselves.
    const reader = server.app.database.searchReads.readerFor('someone');
    const sleepPastBudget = sql`SELECT pg_sleep(${SEARCH_TIME_BUDGET_MS / 1000 + 2})`;
    await expect(sleepPastBudget.execute(reader)).rejects.toMatchObject({ code: '57014' });
  }, 30_000);

  it('holds every route whose work grows with the dataset or the body in the work slots of its kind', () => {
    const routes = workSlotRoutes(server.app);
    expect(routes.read.sort()).toEqual(
      [
        'POST /api/v1/datasets/:dataset_id/records/search',
        'POST /api/v1/me/datasets/:dataset_id/records/search',
        'GET /api/v1/datasets/:dataset_id/records',
        'GET /api/v1/me/datasets/:dataset_id/metrics',
        'GET /api/v1/datasets/:dataset_id/progress',
        'GET /api/v1/datasets/:dataset_id/users/progress',
        'GET /api/v1/metadata-properties/:metadata_property_id/metrics',
        'GET /api/v1/datasets/:dataset_id/agreement',
        'GET /api/v1/datasets/:dataset_id/records/export',
        // HEAD runs the GET handler's work too.
        'HEAD /api/v1/datasets/:dataset_id/records',
        'HEAD /api/v1/me/datasets/:dataset_id/metrics',
        'HEAD /api/v1/datasets/:dataset_id/progress',
        'HEAD /api/v1/datasets/:dataset_id/users/progress',
        'HEAD /api/v1/metadata-properties/:metadata_property_id/metrics',
        'HEAD /api/v1/datasets/:dataset_id/agreement',
        'HEAD /api/v1/datasets/:dataset_id/records/export',
      ].sort(),
    );
    expect(routes.write.sort()).toEqual(
      [
        'POST /api/v1/datasets/:dataset_id/records/bulk',
        'PUT /api/v1/datasets/:dataset_id/records/bulk',
        'DELETE /api/v1/datasets/:dataset_id/records',
        'POST /api/v1/me/responses/bulk',
        'POST /api/v1/datasets/:dataset_id/records/validation/bulk',
      ].sort(),
    );
  });
});
