/**
 * Bench helpers: the real server in its own child process (so the load generator never shares an
 * event loop or a CPU-time figure with it), plus HTTP and percentile helpers.
 *
 * The child is the compiled server, `node server/dist/server.js` as `npm start` runs it (no npx
 * wrapper: its pid is the server's, so /proc/<pid>/status is the server's own memory).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptSettings } from '../../server/test/start-script.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const OWNER = { username: 'bench-owner', password: 'bench-password-1', apiKey: 'bench.owner.apikey' };

export interface ServerProcess {
  /** `http://127.0.0.1:<port>/api/v1` */
  base: string;
  pid: number;
  child: ChildProcess;
  dataDir: string;
  /** VmRSS / VmHWM of the server process, and VmRSS's anonymous, file and shared parts, MiB. */
  memory(): { rssMiB: number; hwmMiB: number; anonMiB: number; fileMiB: number; shmemMiB: number };
  /** Server process CPU time so far (user + system), seconds. */
  cpuSeconds(): number;
  /** CPU seconds of the server's main thread alone (the event loop every request waits for). */
  mainThreadCpuSeconds(): number;
  /** CPU seconds per thread name of the server (worker threads, libuv pool, GC helpers). */
  threadCpuSeconds(): Map<string, number>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** The compiled server `npm start` runs (scripts/build-server.mjs), rebuilt so it matches the sources. */
function compiledServer(): string[] {
  const built = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build-server.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('server build failed');
  return ['--conditions=scholia-compiled', path.join(REPO_ROOT, 'server/dist/server.js')];
}

/** Starts the server on a fresh data dir; `databaseUrl` defaults to a SQLite file in it. */
export async function startServerProcess(options: { databaseUrl?: string; env?: Record<string, string> } = {}): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-bench-'));
  const start = startScriptSettings();
  const port = await freePort();
  const env = {
    ...process.env,
    SCHOLIA_PORT: String(port),
    SCHOLIA_HOST: '127.0.0.1',
    SCHOLIA_DATA_DIR: dataDir,
    SCHOLIA_DATABASE_URL: options.databaseUrl ?? `sqlite:${path.join(dataDir, 'bench.db')}`,
    SCHOLIA_OWNER_USERNAME: OWNER.username,
    SCHOLIA_OWNER_PASSWORD: OWNER.password,
    SCHOLIA_OWNER_API_KEY: OWNER.apiKey,
    SCHOLIA_LOGIN_RATE_LIMIT: '100000',
    SCHOLIA_LOG_LEVEL: 'warn',
    SCHOLIA_HUB_URL: 'http://127.0.0.1:9',
    SCHOLIA_DATASETS_SERVER_URL: 'http://127.0.0.1:9',
    // The allocator settings `npm start` sets (server/package.json), unless this environment sets them.
    ...Object.fromEntries(Object.entries(start.env).map(([name, value]) => [name, process.env[name] ?? value])),
    ...options.env,
  };
  // BENCH_SERVER_NODE_ARGS: extra node flags for the server (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  // `npm start`'s flags come first, so BENCH_SERVER_NODE_ARGS can override them; its export
  // condition comes with the compiled entry (the TypeScript runtime reads the sources).
  const startFlags = start.nodeArgs.filter((flag) => !flag.startsWith('--conditions'));
  const nodeArgs = [...startFlags, ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  // Default: the compiled server, what `npm start` runs. BENCH_SERVER_RUNTIME=tsx: the sources
  // through the TypeScript loader, as the tests run them (about 70 MB more memory).
  const entry = process.env.BENCH_SERVER_RUNTIME === 'tsx' ? ['--import', 'tsx', path.join(REPO_ROOT, 'server/src/server.ts')] : compiledServer();
  const child = spawn(process.execPath, [...nodeArgs, ...entry], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // BENCH_SERVER_LOG=<file>: keep the server's whole stdout/stderr there (e.g. with --trace-gc).
  const log = process.env.BENCH_SERVER_LOG ? fs.createWriteStream(process.env.BENCH_SERVER_LOG) : undefined;
  if (log) {
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
  }
  child.stdout!.on('data', (d) => (output = (output + d).slice(-4000)));
  child.stderr!.on('data', (d) => {
    output = (output + d).slice(-4000);
    process.stderr.write(`[server] ${d}`);
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  const base = `http://127.0.0.1:${port}/api/v1`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`server exited during start:\n${output}`);
    try {
      const res = await fetch(`${base}/status`);
      if (res.status < 500) {
        await res.text();
        break;
      }
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start in 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const pid = child.pid!;
  const ticks = 100; // USER_HZ on Linux
  return {
    base,
    pid,
    child,
    dataDir,
    memory() {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      return {
        rssMiB: kb('VmRSS') / 1024,
        hwmMiB: kb('VmHWM') / 1024,
        anonMiB: kb('RssAnon') / 1024,
        fileMiB: kb('RssFile') / 1024,
        shmemMiB: kb('RssShmem') / 1024,
      };
    },
    cpuSeconds() {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / ticks;
    },
    threadCpuSeconds() {
      const byName = new Map<string, number>();
      for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
        try {
          const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
          const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
          const fields = stat.split(') ')[1].split(' ');
          byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / ticks);
        } catch {
          // the thread ended meanwhile
        }
      }
      return byName;
    },
    mainThreadCpuSeconds() {
      const fields = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / ticks;
    },
    async stop() {
      if (!exited) {
        const done = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await done;
        clearTimeout(timer);
      }
      if (!process.env.BENCH_KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
      else console.log(`kept: ${dataDir}`);
    },
  };
}

export type Call = <T = any>(method: string, url: string, body?: unknown, apiKey?: string) => Promise<T>;

/** JSON call helper; `body` may be pre-serialised. Throws on status ≥ 300. `parse = false` skips parsing. */
export function httpClient(base: string, defaultKey = OWNER.apiKey) {
  const call = async (method: string, url: string, body?: unknown, apiKey = defaultKey, parse = true): Promise<any> => {
    const res = await fetch(base + url, {
      method,
      headers: { 'X-Argilla-Api-Key': apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url} -> ${res.status} ${text.slice(0, 300)}`);
    return parse && text ? JSON.parse(text) : undefined;
  };
  return call;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const load1 = () => os.loadavg()[0].toFixed(2);

/**
 * CPU seconds the hypervisor gave to other guests while this machine's vCPUs wanted to run
 * (`steal` of /proc/stat, all CPUs): a shared host's share of a slow stretch. 0 where unknown.
 */
export function hostStolenCpuSeconds(): number {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    return Number(fields[8] ?? 0) / 100;
  } catch {
    return 0;
  }
}

let seed = Number(process.env.BENCH_SEED ?? 7);
export const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);

// A Zipf-distributed vocabulary of pronounceable words (as bench/server-search.ts).
const SYLLABLES = 'ka ri to mu sen la vo pi de ran tu el mo ns ab or qui fe lin da'.split(' ');
export const VOCABULARY = Array.from({ length: 6_000 }, (_, i) => {
  let word = '';
  let n = i + 7;
  do {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return word;
});
const zipfCumulative = (() => {
  const weights = VOCABULARY.map((_, rank) => 1 / (rank + 1) ** 1.07);
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  return weights.map((w) => (sum += w / total));
})();
export function zipfWord(): string {
  const r = random();
  let lo = 0;
  let hi = zipfCumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (zipfCumulative[mid] < r) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo];
}
export const sentence = (words: number) => Array.from({ length: words }, zipfWord).join(' ');

/**
 * `sentence(words)` drawn from `size` sentences made up front: the load generator then spends
 * ~1 µs a record on text instead of ~15 µs, CPU the server it measures shares.
 */
export function sentencePool(words: number, size = 20_000): () => string {
  const pool = Array.from({ length: size }, () => sentence(words));
  return () => pool[Math.floor(random() * size)];
}

export function clusteredVectorFactory(dimensions: number, clusters = 64) {
  const centroids = Array.from({ length: clusters }, () => Array.from({ length: dimensions }, () => random() * 2 - 1));
  return (): number[] => {
    const c = centroids[Math.floor(random() * clusters)];
    const v = c.map((x) => x + (random() - 0.5) * 0.8);
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm);
    return v.map((x) => Math.round((x / norm) * 1e5) / 1e5);
  };
}

/**
 * CPU seconds of this machine's PostgreSQL so far: every live `postgres` process, plus what the
 * postmasters have collected from their ended children (connections that closed). Only meaningful
 * when the database is local (the throwaway one of scripts/with-postgres.mjs); 0 without one.
 */
export function localPostgresCpuSeconds(): number {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      // A postmaster (its parent is not postgres) also holds its reaped children's time.
      if (!isPostgres(Number(fields[1]))) ticks += Number(fields[13]) + Number(fields[14]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / 100; // USER_HZ on Linux
}

function isPostgres(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === 'postgres';
  } catch {
    return false;
  }
}

/** CPU seconds of this process (the load generator) so far. */
export const ownCpuSeconds = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
