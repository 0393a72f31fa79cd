import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-server.js';
import { describeCase, fuzzCaseArbitrary, RAW_TEXTS, runFuzzCase, SQL_AND_FTS, UNICODE, type FuzzCase } from './fuzz-cases.js';
import { classCases } from './fuzz-classes.js';
import { buildWorld, isContractError, listApiRoutes, snapshotTables, waitForJobs, type World } from './harness.js';

/**
 * Fuzzing of every route's path, query and body: a deterministic matrix of the hostile-input
 * classes (fuzz-classes.ts) and property-based cases (fast-check, FUZZ_RUNS, default 2,500), at
 * least MIN_CASES in all. Hostile input never gets a 5xx, always gets a contract §5 error body,
 * and a refused request writes nothing.
 */
const MIN_CASES = 10_000;
/** Requests sent by each test below, summed and checked against MIN_CASES by the last one. */
const casesRun: Record<string, number> = {};
let server: TestServer;
let world: World;
let routes: string[];

beforeAll(async () => {
  // Webhook deliveries would write in the background while a case runs and look like its writes.
  server = await startTestServer({
    env: { SCHOLIA_HUB_URL: 'http://127.0.0.1:9', SCHOLIA_DATASETS_SERVER_URL: 'http://127.0.0.1:9', SCHOLIA_WEBHOOKS_DELIVER: 'false' },
  });
  world = await buildWorld(server);
  routes = listApiRoutes(server.app);
});
afterAll(async () => {
  await waitForJobs(server.app.database.db).catch(() => undefined);
  await server?.close();
});

/** One known seed, so every run (CI included) replays the same cases; FUZZ_SEED explores others. */
function fuzzSeed(): number {
  return process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261122;
}

const baseRaw = (): Omit<FuzzCase, 'route' | 'raw'> => ({ kind: 'raw', paramValue: '', query: [], body: null, principal: 'owner' });

describe('fuzzing every route', () => {
  it('every route against every member of the hostile-input classes', async () => {
    const cases = await classCases(world, routes);
    const problems: string[] = [];
    const seen: number[] = [];
    for (const fuzz of cases) {
      const outcome = await runFuzzCase(world, fuzz);
      seen.push(outcome.status);
      if (outcome.problem) problems.push(`${describeCase(fuzz)} => ${outcome.problem}`);
    }
    casesRun['class matrix'] = cases.length;
    expect(problems.slice(0, 20)).toEqual([]);
    expect(seen.some((s) => s === 422)).toBe(true);
    expect(seen.some((s) => s < 300)).toBe(true);
  }, 600_000);

  it('never answers 5xx, always a contract error body, and refused requests change nothing', async () => {
    const seen: number[] = [];
    await fc.assert(
      fc.asyncProperty(fuzzCaseArbitrary(routes), async (fuzz) => {
        const outcome = await runFuzzCase(world, fuzz);
        seen.push(outcome.status);
        if (outcome.problem) throw new Error(`${describeCase(fuzz)} => ${outcome.problem}`);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 2_500), endOnFailure: true, seed: fuzzSeed() },
    );
    casesRun['property-based'] = seen.length;
    // The run reached both refusals and accepted requests.
    expect(seen.some((s) => s >= 400)).toBe(true);
    expect(seen.some((s) => s < 300)).toBe(true);
  }, 600_000);

  it('every hostile raw body (invalid JSON, NaN/Infinity, deep nesting, bad UTF-8) on the main write routes', async () => {
    const targets = [
      'PUT /api/v1/datasets/:dataset_id/records/bulk',
      'POST /api/v1/me/responses/bulk',
      'POST /api/v1/datasets/:dataset_id/records/search',
      'POST /api/v1/records/:record_id/responses',
    ];
    const problems: string[] = [];
    for (const route of targets) {
      for (const text of RAW_TEXTS) {
        for (const contentType of ['application/json', 'text/plain']) {
          const fuzz: FuzzCase = { ...baseRaw(), route, raw: { text, contentType } };
          const outcome = await runFuzzCase(world, fuzz);
          if (outcome.problem) problems.push(`${describeCase(fuzz)} => ${outcome.problem}`);
        }
      }
    }
    casesRun['raw bodies'] = targets.length * RAW_TEXTS.length * 2;
    expect(problems).toEqual([]);
  }, 120_000);

  it('SQL and full-text syntax in search text and filters is data, not code', async () => {
    const before = await snapshotTables(world.db);
    const problems: string[] = [];
    let sent = 0;
    for (const q of [...SQL_AND_FTS, ...UNICODE, 'x'.repeat(10_000)]) {
      for (const body of [
        { query: { text: { q } } },
        { query: { text: { q, field: 'text' } } },
        { query: { text: { q, field: q } } },
        { filters: { and: [{ type: 'terms', scope: { entity: 'metadata', metadata_property: q }, values: [q] }] } },
        { sort: [{ scope: { entity: 'metadata', metadata_property: q }, order: 'asc' }] },
      ]) {
        for (const path of [`/datasets/${world.dataset.id}/records/search`, `/me/datasets/${world.dataset.id}/records/search`]) {
          const res = await world.owner.post(path, body);
          sent += 1;
          if (res.status >= 500 || (res.status >= 400 && !isContractError(res.status, res.body))) problems.push(`${path} ${JSON.stringify(body).slice(0, 120)} => ${res.status}`);
        }
      }
    }
    casesRun['search syntax'] = sent;
    expect(problems).toEqual([]);
    expect(await snapshotTables(world.db)).toBe(before);
    // The records are all still there and searchable.
    expect((await world.owner.post(`/datasets/${world.dataset.id}/records/search`, {})).body.total).toBeGreaterThan(0);
  }, 120_000);

  it(`ran at least ${MIN_CASES} cases`, () => {
    const total = Object.values(casesRun).reduce((sum, n) => sum + n, 0);
    console.log(`fuzz cases: ${total} (${Object.entries(casesRun).map(([name, n]) => `${name} ${n}`).join(', ')})`);
    expect(total).toBeGreaterThanOrEqual(MIN_CASES);
  });
});
