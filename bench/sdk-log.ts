/**
 * SDK ingestion bench: `dataset.records.log()` of the official `argilla` SDK (the pinned one of the
 * SDK test suite, server/tests/sdk/.venv; run the SDK tests once to create it) against the real
 * server in a child process (SQLite in a temp dir, or PostgreSQL when SCHOLIA_TEST_DATABASE_URL /
 * BENCH_DATABASE_URL names one). Prints the SDK's wall time and records/s, and how that time
 * splits: the server's CPU seconds during the log (/proc/<pid>/stat) and the Python process's.
 * Records: two text fields, three metadata values and a suggestion (the scale bench's shape);
 * BENCH_SDK_VECTOR=1 adds a 384-dim vector to each.
 *
 *   npx tsx bench/sdk-log.ts                                   # 100,000 records
 *   BENCH_SDK_RECORDS=10000 BENCH_SDK_VECTOR=1 npx tsx bench/sdk-log.ts
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { OWNER, REPO_ROOT, load1, startServerProcess } from './lib/server-process.js';

const RECORDS = Number(process.env.BENCH_SDK_RECORDS ?? 100_000);
const WITH_VECTOR = process.env.BENCH_SDK_VECTOR === '1';
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.SCHOLIA_TEST_DATABASE_URL;
const PYTHON = path.join(REPO_ROOT, 'server/tests/sdk/.venv/bin/python');

const print = (name: string, value: string | number) => console.log(`${name}: ${value}`);

/** Runs log_records.py; `onLogStart` when it starts logging (after its set-up), `onLogEnd` as it ends. */
function runPython(args: string[], onLogStart: () => void, onLogEnd: () => void): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [path.join(REPO_ROOT, 'bench/sdk/log_records.py'), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, TQDM_DISABLE: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      const started = !output.includes('log_start');
      output += chunk;
      if (started && output.includes('log_start')) onLogStart();
      if (output.includes('sdk_process_cpu_s')) onLogEnd();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`log_records.py exited with ${code}`));
      const figures = new Map<string, number>();
      for (const line of output.split('\n')) {
        const [name, value] = line.split(': ');
        if (value !== undefined) figures.set(name, Number(value));
      }
      resolve(figures);
    });
  });
}

async function main() {
  if (!fs.existsSync(PYTHON)) throw new Error(`no SDK virtualenv at ${PYTHON}: run the SDK tests once (npm run test:sdk -w @scholia/server)`);
  const server = await startServerProcess({ databaseUrl: DATABASE_URL?.startsWith('postgres') ? DATABASE_URL : undefined });
  try {
    print('database', DATABASE_URL?.startsWith('postgres') ? 'postgres' : 'sqlite');
    print('records', `${RECORDS}${WITH_VECTOR ? ' with a 384-dim vector each' : ''}`);
    let cpuAtStart = 0;
    let cpuAtEnd = 0;
    const args = [server.base.replace(/\/api\/v1$/, ''), OWNER.apiKey, String(RECORDS), WITH_VECTOR ? '1' : '0'];
    const figures = await runPython(
      args,
      () => (cpuAtStart = server.cpuSeconds()),
      () => (cpuAtEnd ||= server.cpuSeconds()),
    );
    const seconds = figures.get('sdk_log_seconds')!;
    const serverCpu = cpuAtEnd - cpuAtStart;
    print('sdk_log_seconds', seconds.toFixed(1));
    print('sdk_log_records_per_s', Math.round(RECORDS / seconds));
    print('server_cpu_s', serverCpu.toFixed(1));
    print('sdk_process_cpu_s', figures.get('sdk_process_cpu_s')!.toFixed(1));
    print('load_average_1m', load1());
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
