/**
 * Reliability bench: the long runs of server/test/reliability, with figures.
 *  1. authorization matrix: every /api/v1 route of the server's own table × 8 principals;
 *  2. fuzzing: FUZZ_CASES (default 3000) hostile requests (fast-check), counting 5xx, non-contract
 *     bodies and refused requests that wrote;
 *  3. durability: KILL_CYCLES (default 5) SIGKILLs of the real server mid-writes, then restart and
 *     count acknowledged writes lost and half-written batches;
 *  4. soak: SOAK_CLIENTS (default 100) annotators on loopback for SOAK_SECONDS (default 60; 300 for
 *     the full run) against the real server process, each fetching its next page and submitting
 *     once every SOAK_PACE_MS (default 1000): errors, p99 latency per kind, RSS growth;
 *  5. abuse: ABUSE_CLIENTS (default 3) annotators each keep ABUSE_PARALLEL (default 10) of the most
 *     expensive requests they can build under way for ABUSE_SECONDS (default 30) against the real
 *     server process (ABUSE_RECORDS, default 5000, ordinary records), while one well-behaved
 *     annotator reads pages and searches one word: its p50/p99 and wrong answers (alone, then under
 *     the flood), the flood's answers by status, the server's peak RSS.
 * Prints plain `name: value` lines. Run from the repo root: `npx tsx bench/reliability.ts`.
 */
import { fork, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { TestApi } from '../server/test/api-client.js';
import { createScratchDatabase, startTestServer } from '../server/test/test-server.js';
import { CHILD_OWNER, startChildServer } from '../server/test/reliability/child-server.js';
import { runDurability } from '../server/test/reliability/durability-scenario.js';
import { fuzzCaseArbitrary, runFuzzCase } from '../server/test/reliability/fuzz-cases.js';
import { abusiveRequests, readerCycle, seedAbuseWorld } from '../server/test/reliability/search-abuse.js';
import { buildWorld, listApiRoutes, MATRIX_PRINCIPALS, snapshotTables, waitForJobs } from '../server/test/reliability/harness.js';
import { expectedStatus, ROUTE_EXPECTATIONS, sendRouteRequest } from '../server/test/reliability/route-expectations.js';

const FUZZ_CASES = Number(process.env.FUZZ_CASES ?? 3000);
const KILL_CYCLES = Number(process.env.KILL_CYCLES ?? 5);
const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const SOAK_CLIENTS = Number(process.env.SOAK_CLIENTS ?? 100);
const SOAK_PACE_MS = Number(process.env.SOAK_PACE_MS ?? 1000);
const ABUSE_SECONDS = Number(process.env.ABUSE_SECONDS ?? 30);
const ABUSE_CLIENTS = Number(process.env.ABUSE_CLIENTS ?? 3);
const ABUSE_PARALLEL = Number(process.env.ABUSE_PARALLEL ?? 10);
const ABUSE_RECORDS = Number(process.env.ABUSE_RECORDS ?? 5000);
const only = (process.env.ONLY ?? 'authz,fuzz,durability,soak,abuse').split(',');

const print = (name: string, value: string | number) => console.log(`${name}: ${value}`);

async function authorizationAndFuzz() {
  const server = await startTestServer({ env: { SCHOLIA_HUB_URL: 'http://127.0.0.1:9', SCHOLIA_DATASETS_SERVER_URL: 'http://127.0.0.1:9' } });
  try {
    const world = await buildWorld(server);
    const routes = listApiRoutes(server.app);
    if (only.includes('authz')) {
      let checks = 0;
      const mismatches: string[] = [];
      for (const route of routes) {
        const expectation = ROUTE_EXPECTATIONS[route];
        if (!expectation) continue;
        const method = route.split(' ')[0];
        const successes = Array.isArray(expectation.success) ? expectation.success : [expectation.success];
        for (const principal of MATRIX_PRINCIPALS) {
          const want = expectedStatus(expectation.policy, principal, successes[0]);
          const allowed = successes.includes(want) && want < 400;
          const request = await expectation.request(world, allowed);
          const before = allowed ? undefined : await snapshotTables(world.db);
          const res = await sendRouteRequest(world.clients[principal], method, request);
          checks += 1;
          if (allowed ? !successes.includes(res.status) : res.status !== want) mismatches.push(`${route} ${principal}: want ${want} got ${res.status}`);
          if (before !== undefined && (await snapshotTables(world.db)) !== before) mismatches.push(`${route} ${principal}: refused call wrote`);
        }
      }
      print('authz_routes', routes.length);
      print('authz_routes_without_expectation', routes.filter((r) => !ROUTE_EXPECTATIONS[r]).length);
      print('authz_principals', MATRIX_PRINCIPALS.length);
      print('authz_checks', checks);
      print('authz_mismatches', mismatches.length);
      for (const m of mismatches.slice(0, 10)) console.error(`  ${m}`);
    }
    if (only.includes('fuzz')) {
      const cases = fc.sample(fuzzCaseArbitrary(routes), { numRuns: FUZZ_CASES, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) });
      let fivexx = 0;
      let badShape = 0;
      let refusedWrites = 0;
      let refused = 0;
      const started = performance.now();
      for (const fuzz of cases) {
        const outcome = await runFuzzCase(world, fuzz);
        if (outcome.status >= 400) refused += 1;
        if (!outcome.problem) continue;
        if (outcome.problem.startsWith('5xx') || outcome.status === 0) fivexx += 1;
        else if (outcome.problem.startsWith('not a contract')) badShape += 1;
        else refusedWrites += 1;
        console.error(`  fuzz problem: ${fuzz.route} [${fuzz.kind}] ${outcome.problem.slice(0, 200)}`);
      }
      print('fuzz_cases', cases.length);
      print('fuzz_refused_4xx', refused);
      print('fuzz_5xx', fivexx);
      print('fuzz_non_contract_bodies', badShape);
      print('fuzz_refused_but_wrote', refusedWrites);
      print('fuzz_seconds', ((performance.now() - started) / 1000).toFixed(1));
    }
    await waitForJobs(server.app.database.db).catch(() => undefined);
  } finally {
    await server.close();
  }
}

async function durability() {
  const report = await runDurability({ cycles: KILL_CYCLES });
  print('kills', report.kills);
  print('kills_survived', report.problems.length === 0 ? report.kills : 0);
  print('acked_batches', report.ackedBatches);
  print('acked_responses', report.ackedResponses);
  print('writes_lost', report.lostWrites);
  print('half_written_batches', report.halfWrittenBatches);
  print('record_status_mismatches', report.statusMismatches);
  print('jobs_not_final', report.jobsNotFinal);
  for (const p of report.problems.slice(0, 10)) console.error(`  ${p}`);
}

const rssOf = (pid: number): number => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
};

/** CPU seconds (user + system) a process has used: holds on a busy host, where latency does not. */
const cpuSecondsOf = (pid: number): number => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ
};

async function soak() {
  // Every annotator signs in from this one address: the per-client sign-in limit is lifted for the run.
  const child = await startChildServer({ env: { SCHOLIA_LOG_LEVEL: 'warn', SCHOLIA_LOGIN_RATE_LIMIT: '0' } });
  try {
    const owner = new TestApi(child.url, { apiKey: CHILD_OWNER.apiKey });
    const ws = (await owner.post('/workspaces', { name: 'soak' })).body.id;
    const ds = (await owner.post('/datasets', { name: 'soak', workspace_id: ws, distribution: { strategy: 'overlap', min_submitted: 2 } })).body.id;
    await owner.post(`/datasets/${ds}/fields`, { name: 'text', title: 'text', required: true, settings: { type: 'text' } });
    await owner.post(`/datasets/${ds}/questions`, {
      name: 'label',
      title: 'label',
      required: true,
      settings: { type: 'label_selection', options: ['a', 'b', 'c'].map((v) => ({ value: v, text: v })) },
    });
    await owner.put(`/datasets/${ds}/publish`);
    const recordIds: string[] = [];
    for (let b = 0; b < 4; b += 1) {
      const res = await owner.put(`/datasets/${ds}/records/bulk`, { items: Array.from({ length: 500 }, (_, i) => ({ fields: { text: `soak record ${b * 500 + i} about labels` } })) });
      recordIds.push(...res.body.items.map((r: { id: string }) => r.id));
    }
    const annotators: TestApi[] = [];
    for (let i = 0; i < SOAK_CLIENTS; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, SOAK_CLIENTS - i) }, async (_, k) => {
          const user = await owner.post('/users', { username: `soak-${i + k}`, first_name: 'S', role: 'annotator', password: 'soak-password-1' });
          await owner.post(`/workspaces/${ws}/users`, { user_id: user.body.id });
          const form = `username=soak-${i + k}&password=soak-password-1`;
          const signedIn = await owner.as(undefined).request('POST', '/token', form, { 'Content-Type': 'application/x-www-form-urlencoded' });
          if (signedIn.status !== 201) throw new Error(`sign-in of soak-${i + k} answered ${signedIn.status}`);
          return owner.as({ token: signedIn.body.access_token });
        }),
      );
      annotators.push(...batch);
    }

    // Open loop: each annotator starts a cycle every SOAK_PACE_MS whether or not the last one came
    // back, and latency counts from the scheduled start, so a slow server shows as latency rather
    // than as fewer requests. SOAK_PACE_MS=0 runs back to back (a capacity figure, not a target).
    const latencies: Record<'search' | 'submit' | 'other', number[]> = { search: [], submit: [], other: [] };
    let errors = 0;
    const errorStatuses = new Map<number, number>();
    const deadline = Date.now() + SOAK_SECONDS * 1000;
    const timed = async (kind: keyof typeof latencies, scheduled: number, call: () => Promise<{ status: number }>) => {
      try {
        const res = await call();
        if (res.status >= 400) {
          errors += 1;
          errorStatuses.set(res.status, (errorStatuses.get(res.status) ?? 0) + 1);
        }
      } catch {
        errors += 1;
      }
      latencies[kind].push(performance.now() - scheduled);
    };
    const cycle = async (api: TestApi, k: number, scheduled: number) => {
      const recordId = recordIds[k % recordIds.length];
      await timed('search', scheduled, () => api.post(`/me/datasets/${ds}/records/search?include=responses&offset=${k % 1900}&limit=10`, {}));
      const submitAt = performance.now();
      await timed('submit', submitAt, () =>
        api.post('/me/responses/bulk', { items: [{ record_id: recordId, status: k % 9 === 0 ? 'draft' : 'submitted', values: { label: { value: 'abc'[k % 3] } } }] }),
      );
      const otherAt = performance.now();
      if (k % 5 === 0) await timed('other', otherAt, () => api.get(`/me/datasets/${ds}/metrics`));
      if (k % 11 === 0) await timed('other', performance.now(), () => api.get(`/datasets/${ds}/progress`));
    };
    const annotate = async (api: TestApi, n: number) => {
      const inFlight: Promise<void>[] = [];
      let next = performance.now() + (SOAK_PACE_MS * n) / annotators.length;
      for (let k = n * 17; Date.now() < deadline; k += 7) {
        if (SOAK_PACE_MS === 0) {
          await cycle(api, k, performance.now());
          continue;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
        inFlight.push(cycle(api, k, next));
        next += SOAK_PACE_MS;
      }
      await Promise.all(inFlight);
    };
    const pid = child.process.pid!;
    const run = Promise.all(annotators.map((api, n) => annotate(api, n)));
    // Baseline once warm (caches, JIT, SQLite page cache): 10% into the run, at least 5 s.
    await new Promise((resolve) => setTimeout(resolve, Math.max(5_000, SOAK_SECONDS * 100)));
    const rssStart = rssOf(pid);
    const cpuStart = cpuSecondsOf(pid);
    const requestsAtStart = latencies.search.length + latencies.submit.length + latencies.other.length;
    const measuredFrom = performance.now();
    let rssPeak = rssStart;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssOf(pid))), 1_000);
    await run;
    clearInterval(sampler);
    const rssEnd = rssOf(pid);
    const cpuUsed = cpuSecondsOf(pid) - cpuStart;
    const measuredSeconds = (performance.now() - measuredFrom) / 1000;
    const all = [...latencies.search, ...latencies.submit, ...latencies.other];
    const pct = (values: number[], p: number) => {
      const sorted = [...values].sort((a, b) => a - b);
      return (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0).toFixed(1);
    };
    print('soak_seconds', SOAK_SECONDS);
    print('soak_clients', annotators.length);
    print('soak_pace', SOAK_PACE_MS === 0 ? 'back to back' : `one cycle (next page + submit) per annotator every ${SOAK_PACE_MS} ms`);
    print('soak_requests', all.length);
    print('soak_requests_per_s', (all.length / SOAK_SECONDS).toFixed(0));
    print('soak_errors', errors);
    print('soak_error_statuses', [...errorStatuses].map(([status, n]) => `${status}:${n}`).join(' ') || 'none');
    print('soak_p50_ms', pct(all, 0.5));
    print('soak_p99_ms', pct(all, 0.99));
    print('soak_submit_p50_ms', pct(latencies.submit, 0.5));
    print('soak_submit_p99_ms', pct(latencies.submit, 0.99));
    print('soak_next_page_p95_ms', pct(latencies.search, 0.95));
    print('soak_next_page_p99_ms', pct(latencies.search, 0.99));
    print('soak_server_cpu_ms_per_request', ((cpuUsed * 1000) / Math.max(1, all.length - requestsAtStart)).toFixed(2));
    print('soak_server_cpu_busy_pct', ((cpuUsed / measuredSeconds) * 100).toFixed(0));
    print('soak_rss_start_mb', (rssStart / 2 ** 20).toFixed(0));
    print('soak_rss_peak_mb', (rssPeak / 2 ** 20).toFixed(0));
    print('soak_rss_end_mb', (rssEnd / 2 ** 20).toFixed(0));
    print('soak_rss_growth_pct', (((rssEnd - rssStart) / rssStart) * 100).toFixed(1));
    print('load_average_1m', os.loadavg()[0].toFixed(1));
  } finally {
    await child.stop();
  }
}

async function abuse() {
  // Under scripts/with-postgres.mjs the server runs on a fresh PostgreSQL database.
  const adminUrl = process.env.SCHOLIA_TEST_DATABASE_URL;
  const scratch = adminUrl?.startsWith('postgres') ? await createScratchDatabase(adminUrl) : undefined;
  // The compiled server, as `npm start` runs it (from the sources, the TypeScript loader in the
  // server and in each worker thread adds tens of MB to the RSS measured).
  const built = spawnSync(process.execPath, [fileURLToPath(new URL('../scripts/build-server.mjs', import.meta.url))], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('server build failed');
  const child = await startChildServer({ compiled: true, env: { SCHOLIA_LOG_LEVEL: 'warn', ...(scratch ? { SCHOLIA_DATABASE_URL: scratch.url } : {}) } });
  try {
    const world = await seedAbuseWorld(child.url, { records: ABUSE_RECORDS, abusers: ABUSE_CLIENTS, ownerApiKey: CHILD_OWNER.apiKey });
    const pid = child.process.pid!;
    const pct = (values: number[], p: number) => {
      const sorted = [...values].sort((a, b) => a - b);
      return (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0).toFixed(1);
    };
    const readFor = async (ms: number) => {
      const latencies: number[] = [];
      let wrong = 0;
      const until = Date.now() + ms;
      for (let k = 0; Date.now() < until; k++) {
        const cycle = await readerCycle(world, k);
        latencies.push(...cycle.latencies);
        wrong += cycle.problems.length;
        for (const problem of cycle.problems.slice(0, 3)) console.error(`  reader: ${problem}`);
      }
      return { latencies, wrong };
    };
    const alone = await readFor(5_000);

    let rssPeak = rssOf(pid);
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssOf(pid))), 200);
    const floodInput = { url: child.url, datasetId: world.datasetId, abusers: world.abusers.map((api) => api.credentials), seconds: ABUSE_SECONDS, parallel: ABUSE_PARALLEL };
    const flooder = fork(fileURLToPath(new URL('./abuse-flood.ts', import.meta.url)), [JSON.stringify(floodInput)], { execArgv: ['--import', 'tsx'] });
    const floodResult = new Promise<{ statuses: Record<number, number>; answeredMs: Record<string, number[]> }>((resolve, reject) => {
      flooder.once('message', resolve as (message: unknown) => void);
      flooder.once('exit', (code) => reject(new Error(`flood process exited with ${code}`)));
    });
    const [flooded, floodAnswers] = await Promise.all([readFor(ABUSE_SECONDS * 1000), floodResult]);
    clearInterval(sampler);
    const statuses = new Map(Object.entries(floodAnswers.statuses).map(([status, n]) => [Number(status), n]));
    const okMsByKind = new Map(Object.entries(floodAnswers.answeredMs));
    const count = (test: (status: number) => boolean) => [...statuses].filter(([status]) => test(status)).reduce((sum, [, n]) => sum + n, 0);
    print('abuse_seconds', ABUSE_SECONDS);
    print('abuse_records', world.records);
    print('abuse_clients', `${ABUSE_CLIENTS} annotators x ${ABUSE_PARALLEL} requests under way (their own process), ${abusiveRequests().length} kinds of request`);
    print('abuse_requests', count(() => true));
    print('abuse_statuses', [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}:${n}`).join(' '));
    print('abuse_5xx_or_no_answer', count((status) => status === 0 || status >= 500));
    for (const [kind, ms] of okMsByKind) print(`abuse_answered_p50_ms [${kind}]`, pct(ms, 0.5));
    print('reader_alone_requests', alone.latencies.length);
    print('reader_alone_p50_ms', pct(alone.latencies, 0.5));
    print('reader_alone_p99_ms', pct(alone.latencies, 0.99));
    print('reader_requests', flooded.latencies.length);
    print('reader_wrong_answers', alone.wrong + flooded.wrong);
    print('reader_p50_ms', pct(flooded.latencies, 0.5));
    print('reader_p99_ms', pct(flooded.latencies, 0.99));
    print('server_rss_peak_mb', (rssPeak / 2 ** 20).toFixed(0));
    print('abuse_database', scratch ? 'postgres' : 'sqlite');
    print('load_average_1m', os.loadavg()[0].toFixed(1));
  } finally {
    await child.stop();
    await scratch?.drop();
  }
}

if (only.includes('authz') || only.includes('fuzz')) await authorizationAndFuzz();
if (only.includes('durability')) await durability();
if (only.includes('soak')) await soak();
if (only.includes('abuse')) await abuse();
process.exit(0);
