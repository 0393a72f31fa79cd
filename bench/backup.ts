/**
 * Backup under load: the real server (SQLite, child process) gets a database of BENCH_BACKUP_MIB
 * (250) MiB, then a writer adds one record every BENCH_BACKUP_WRITE_MS (200 ms: 5 writes/s) while
 * `server/src/tools/backup.ts` (what `npm run backup` runs) copies it. Prints the database's size,
 * the backup's wall time, the writes acknowledged during it and the slowest of them, and how many
 * writes acknowledged before the backup started are missing from the copy (must be 0).
 *
 * Run from the repo root: `npx tsx bench/backup.ts`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import { httpClient, load1, REPO_ROOT, sentence, startServerProcess } from './lib/server-process.js';

const TARGET_MIB = Number(process.env.BENCH_BACKUP_MIB ?? 250);
const WRITE_MS = Number(process.env.BENCH_BACKUP_WRITE_MS ?? 200);
const BATCH = 500;
const print = (name: string, value: string | number) => console.log(`${name}: ${value}`);

async function main() {
  const server = await startServerProcess();
  const call = httpClient(server.base);
  const databaseFile = path.join(server.dataDir, 'bench.db');
  const backups = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-bench-backup-'));
  try {
    const workspace = await call('POST', '/workspaces', { name: 'bench' });
    const dataset = await call('POST', '/datasets', { name: 'backup', workspace_id: workspace.id });
    await call('POST', `/datasets/${dataset.id}/fields`, { name: 'text', title: 'text', required: true, settings: { type: 'text' } });
    await call('POST', `/datasets/${dataset.id}/questions`, { name: 'q', title: 'q', required: true, settings: { type: 'text' } });
    await call('PUT', `/datasets/${dataset.id}/publish`);

    const sizeMiB = () => ['', '-wal'].reduce((sum, suffix) => sum + (fs.statSync(databaseFile + suffix, { throwIfNoEntry: false })?.size ?? 0), 0) / 1024 / 1024;
    const filling = performance.now();
    for (let batch = 0; sizeMiB() < TARGET_MIB; batch++) {
      const items = Array.from({ length: BATCH }, (_, n) => ({ external_id: `fill-${batch}-${n}`, fields: { text: sentence(300) } }));
      await call('PUT', `/datasets/${dataset.id}/records/bulk`, { items });
    }
    print('database_mib', sizeMiB().toFixed(0));
    print('fill_seconds', ((performance.now() - filling) / 1000).toFixed(1));

    const acknowledged: string[] = [];
    const latencies: number[] = [];
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        const due = performance.now() + WRITE_MS;
        const sent = performance.now();
        await call('POST', `/datasets/${dataset.id}/records/bulk`, { items: [{ external_id: `live-${n}`, fields: { text: sentence(40) } }] });
        latencies.push(performance.now() - sent);
        acknowledged.push(`live-${n}`);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    const beforeStart = new Set(acknowledged);
    const latenciesBefore = latencies.length;
    const target = path.join(backups, 'scholia.db');
    const started = performance.now();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/tools/backup.ts', target], {
        cwd: path.join(REPO_ROOT, 'server'),
        env: { ...process.env, SCHOLIA_DATA_DIR: server.dataDir, SCHOLIA_DATABASE_URL: `sqlite:${databaseFile}` },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      child.once('close', resolve);
    });
    const seconds = (performance.now() - started) / 1000;
    const during = latencies.slice(latenciesBefore);
    writing = false;
    await writer;

    print('backup_exit_status', String(code));
    print('backup_seconds', `${seconds.toFixed(1)} (load ${load1()})`);
    print('backup_mib', (fs.statSync(target).size / 1024 / 1024).toFixed(0));
    print('writes_during_backup', during.length);
    print('writes_per_second_during_backup', (during.length / seconds).toFixed(1));
    print('slowest_write_during_backup_ms', Math.max(0, ...during).toFixed(0));
    const copy = new SQLite(target, { readonly: true });
    const inCopy = new Set((copy.prepare("SELECT external_id FROM records WHERE external_id LIKE 'live-%'").all() as { external_id: string }[]).map((row) => row.external_id));
    copy.close();
    print('acknowledged_before_start_missing_from_copy', [...beforeStart].filter((id) => !inCopy.has(id)).length);
  } finally {
    await server.stop();
    fs.rmSync(backups, { recursive: true, force: true });
  }
}

await main();
