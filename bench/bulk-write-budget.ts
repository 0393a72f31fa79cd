/**
 * Bulk writes against everyone else: starts the real server in a child process (SQLite in a temp
 * dir; PostgreSQL when BENCH_DATABASE_URL / SCHOLIA_TEST_DATABASE_URL names one). In a process of
 * their own, BENCH_WRITERS (8) writers send `PUT /datasets/{id}/records/bulk` at once, each
 * BENCH_ROUNDS (2) bodies one after another of BENCH_BULK_RECORDS (500) records with a text
 * field of BENCH_RECORD_KB (120) KB; BENCH_WRITER_USERS (1) admins share the writers. Meanwhile
 * another user, an annotator, calls `GET /me` every BENCH_POLL_MS (50) ms, one at a time.
 *
 * Prints the server's RSS before and its peak (VmHWM) during the writes, the annotator's /me
 * p50 / p99 / slowest, the writes' answers by status (the first refusal's `detail` and
 * `Retry-After`), the records written per second, and the server's CPU time during the writes:
 * the event loop's thread's share holds on a busy host, where the /me latencies move with the load.
 *
 * Run from the repo root: `npx tsx bench/bulk-write-budget.ts`; env SCHOLIA_* settings pass on
 * to the server (e.g. SCHOLIA_BULK_BODY_BUDGET_MIB).
 */
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { httpClient, load1, OWNER, percentile, startServerProcess } from './lib/server-process.js';

const WRITERS = Number(process.env.BENCH_WRITERS ?? 8);
const WRITER_USERS = Number(process.env.BENCH_WRITER_USERS ?? 1);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const RECORDS = Number(process.env.BENCH_BULK_RECORDS ?? 500);
const RECORD_KB = Number(process.env.BENCH_RECORD_KB ?? 120);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 50);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.SCHOLIA_TEST_DATABASE_URL;

const print = (name: string, value: string | number) => console.log(`${name}: ${value}`);
const mib = (value: number) => `${Math.round(value)} MiB`;

interface WritersResult {
  statuses: Record<number, number>;
  refusals: Record<number, { detail: string; retryAfter: string | null }>;
  bytesSent: number;
}

async function main() {
  const server = await startServerProcess({ databaseUrl: DATABASE_URL?.startsWith('postgres') ? DATABASE_URL : undefined });
  const call = httpClient(server.base);
  print('database', DATABASE_URL?.startsWith('postgres') ? 'postgres' : 'sqlite');
  try {
    const workspace = await call('POST', '/workspaces', { name: 'bench' });
    const dataset = await call('POST', '/datasets', { name: 'bulk-budget', workspace_id: workspace.id });
    await call('POST', `/datasets/${dataset.id}/fields`, { name: 'text', title: 'text', required: true, settings: { type: 'text' } });
    await call('POST', `/datasets/${dataset.id}/questions`, {
      name: 'ok', title: 'ok', required: true, settings: { type: 'label_selection', options: [{ value: 'yes', text: 'yes' }, { value: 'no', text: 'no' }] },
    });
    await call('PUT', `/datasets/${dataset.id}/publish`);

    const newUser = async (username: string, role: string) => {
      const password = `${username}-password`;
      const user = await call('POST', '/users', { username, first_name: username, role, password });
      await call('POST', `/workspaces/${workspace.id}/users`, { user_id: user.id });
      const form = `username=${username}&password=${password}`;
      const res = await fetch(`${server.base}/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form });
      const { access_token: token } = (await res.json()) as { access_token: string };
      const me = (await (await fetch(`${server.base}/me`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { api_key: string };
      return me.api_key;
    };
    const writerKeys = WRITER_USERS <= 1 ? [OWNER.apiKey] : await Promise.all(Array.from({ length: WRITER_USERS }, (_, k) => newUser(`bench-admin-${k}`, 'admin')));
    const readerKey = await newUser('bench-annotator', 'annotator');

    const me = async () => {
      const started = performance.now();
      const res = await fetch(`${server.base}/me`, { headers: { 'X-Argilla-Api-Key': readerKey } });
      await res.text();
      if (res.status !== 200) throw new Error(`GET /me answered ${res.status}`);
      return performance.now() - started;
    };
    const alone: number[] = [];
    for (let k = 0; k < 100; k += 1) alone.push(await me());

    print('bulk body', `${RECORDS} records × ${RECORD_KB} KB = ${(RECORDS * RECORD_KB) / 1000} MB; ${WRITERS} writers (${Math.max(1, WRITER_USERS)} users) × ${ROUNDS} bodies`);
    print('rss before', mib(server.memory().rssMiB));
    const writersInput = {
      base: server.base,
      datasetId: dataset.id,
      apiKeys: Array.from({ length: WRITERS }, (_, k) => writerKeys[k % writerKeys.length]),
      records: RECORDS,
      recordChars: RECORD_KB * 1000,
      rounds: ROUNDS,
    };
    const writers = fork(fileURLToPath(new URL('./bulk-writers.ts', import.meta.url)), [JSON.stringify(writersInput)], { execArgv: ['--import', 'tsx'] });
    const written = new Promise<WritersResult>((resolve, reject) => {
      writers.once('message', resolve as (message: unknown) => void);
      writers.once('exit', (code) => reject(new Error(`writers process exited with ${code}`)));
    });
    let done = false;
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.memory().rssMiB)), 50);
    const started = performance.now();
    const [mainCpu0, cpu0] = [server.mainThreadCpuSeconds(), server.cpuSeconds()];
    const during: number[] = [];
    const polling = (async () => {
      while (!done) {
        const sent = performance.now();
        during.push(await me());
        await new Promise((r) => setTimeout(r, Math.max(0, POLL_MS - (performance.now() - sent))));
      }
    })();
    const result = await written.finally(() => (done = true));
    await polling;
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    const [mainCpu, cpu] = [server.mainThreadCpuSeconds() - mainCpu0, server.cpuSeconds() - cpu0];
    const memory = server.memory();

    alone.sort((a, b) => a - b);
    during.sort((a, b) => a - b);
    print('rss peak (VmHWM)', `${mib(memory.hwmMiB)} (sampled every 50 ms: ${mib(peakRss)})`);
    print('rss after', mib(memory.rssMiB));
    print('/me alone p50 / p99', `${percentile(alone, 50).toFixed(1)} / ${percentile(alone, 99).toFixed(1)} ms`);
    print('/me during writes p50 / p99 / slowest', `${percentile(during, 50).toFixed(1)} / ${percentile(during, 99).toFixed(1)} / ${during[during.length - 1].toFixed(1)} ms (${during.length} requests)`);
    print('writes by status', Object.entries(result.statuses).map(([status, count]) => `${count} × ${status}`).join(', '));
    for (const [status, refusal] of Object.entries(result.refusals)) print(`refusal ${status}`, `Retry-After ${refusal.retryAfter ?? '-'}; ${refusal.detail}`);
    const stored = (result.statuses[200] ?? 0) * RECORDS;
    print('records written', `${stored} in ${seconds.toFixed(1)} s (${Math.round(stored / seconds)}/s; ${((result.bytesSent / 1e6) / seconds).toFixed(1)} MB/s sent)`);
    const storedMb = (stored * RECORD_KB) / 1000;
    print('server CPU during writes', `${cpu.toFixed(1)} s, of which the event loop's thread ${mainCpu.toFixed(1)} s (${storedMb ? ((mainCpu * 1000) / storedMb).toFixed(0) : '-'} ms a MB written)`);
    print('load (1 min)', load1());
  } finally {
    await server.stop();
  }
}

await main();
