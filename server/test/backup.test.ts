import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareInventories, readInventory } from '../src/storage/restore-check.js';
import { TestApi } from './api-client.js';
import { createPublishedDataset } from './datasets-api-fixtures.js';
import { createWorkspace } from './fixtures.js';
import { OWNER, startTestServer, type TestServer } from './test-server.js';

const serverDir = path.resolve(import.meta.dirname, '..');

/** Runs a tool the way `npm run backup` / `npm run restore-check` do (from server/), with the server's settings. */
function runTool(tool: 'backup' | 'restore-check', args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `src/tools/${tool}.ts`, ...args], {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const sqliteServer = !process.env.SCHOLIA_TEST_DATABASE_URL?.startsWith('postgres');

describe.runIf(sqliteServer)('npm run backup on a live SQLite database', () => {
  let server: TestServer;
  let api: TestApi;
  let datasetId: string;
  const backups = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-backups-'));
  const settings = () => ({ SCHOLIA_DATA_DIR: server.dataDir, SCHOLIA_DATABASE_URL: server.databaseUrl });

  beforeAll(async () => {
    server = await startTestServer();
    api = new TestApi(server.url, { apiKey: OWNER.apiKey });
    const workspace = await createWorkspace(api);
    datasetId = (await createPublishedDataset(api, workspace.id)).id;
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(backups, { recursive: true, force: true });
  });

  it('finishes while a writer keeps writing, and holds every write acknowledged before it started', async () => {
    const acknowledged: string[] = [];
    const failures: string[] = [];
    let writing = true;
    // One record per request, each sent when the last was answered: far more than 5 writes/s.
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        const res = await api.post(`/datasets/${datasetId}/records/bulk`, { items: [{ external_id: `w-${n}`, fields: { text: `answer ${n} `.repeat(50) } }] });
        if (res.status === 201) acknowledged.push(`w-${n}`);
        else failures.push(`${res.status} ${res.text}`);
      }
    })();
    while (acknowledged.length < 50) await new Promise((resolve) => setTimeout(resolve, 20));

    const beforeStart = [...acknowledged];
    const target = path.join(backups, 'live.db');
    const result = await runTool('backup', [target], settings());
    const duringBackup = acknowledged.length - beforeStart.length;
    writing = false;
    await writer;

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^backup: ${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\([\\d.]+ MiB\\) in [\\d.]+ s, integrity ok: users 1, datasets 1, records \\d+, responses 0, suggestions 0, vectors 0\\n$`));
    expect(failures).toEqual([]);
    // The server went on answering writes while the copy was made.
    expect(duringBackup).toBeGreaterThan(0);
    const copy = new SQLite(target, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const inCopy = new Set((copy.prepare('SELECT external_id FROM records').all() as { external_id: string }[]).map((row) => row.external_id));
      expect(beforeStart.filter((id) => !inCopy.has(id))).toEqual([]);
    } finally {
      copy.close();
    }
    // No partial file is left beside it.
    expect(fs.readdirSync(backups)).toEqual(['live.db']);
  });

  it('a restore check of the backup against the quiet database finds them equal', async () => {
    const target = path.join(backups, 'quiet.db');
    expect((await runTool('backup', [target], settings())).code).toBe(0);
    const check = await runTool('restore-check', [server.databaseUrl, target], {});
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/^restore-check: the restored database matches: users 1, datasets 1, records \d+, /);
  });

  it('a restore check names each table whose count differs', async () => {
    const target = path.join(backups, 'behind.db');
    expect((await runTool('backup', [target], settings())).code).toBe(0);
    await api.post(`/datasets/${datasetId}/records/bulk`, { items: [{ external_id: 'after-the-backup', fields: { text: 'late' } }] });
    const [source, restored] = await Promise.all([readInventory(server.databaseUrl), readInventory(target)]);
    expect(compareInventories(source, restored)).toEqual([`records: ${source.counts.records} in the source, ${source.counts.records - 1} in the restored database`]);
    const check = await runTool('restore-check', [server.databaseUrl, target], {});
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('restore-check: records: ');
  });

  it('refuses a target that exists, and leaves it as it was', async () => {
    const target = path.join(backups, 'taken.db');
    fs.writeFileSync(target, 'keep me');
    const result = await runTool('backup', [target], settings());
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`backup failed: ${target} already exists: name a new file for each backup\n`);
    expect(fs.readFileSync(target, 'utf8')).toBe('keep me');
  });

  it('without a target, prints its usage', async () => {
    const result = await runTool('backup', [], settings());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^usage: npm run backup -- <target file>/);
  });
});
