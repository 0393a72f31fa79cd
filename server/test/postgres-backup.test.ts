import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareInventories, readInventory } from '../src/storage/restore-check.js';
import { TestApi } from './api-client.js';
import { createDataset, createField, createQuestion } from './datasets-api-fixtures.js';
import { createWorkspace } from './fixtures.js';
import { createScratchDatabase, OWNER, startTestServer, type ScratchDatabase, type TestServer } from './test-server.js';

/**
 * The PostgreSQL backup recipe of docs/deployment.md, step by step: pg_dump as the application's
 * user, a superuser creates the empty database's `vector` extension, pg_restore as the
 * application's user with --exit-on-error, then the restore check. Without the extension the
 * restore stops with an error instead of going on without the vectors table.
 */
const adminUrl = process.env.SCHOLIA_TEST_DATABASE_URL;

function postgresBin(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_dump'))).sort((a, b) => Number(b) - Number(a)) : [];
  return versions[0] && path.join(root, versions[0], 'bin');
}

const bin = postgresBin();

/** The recipe is about keeping pgvector: without the extension installed there is nothing to show. */
async function pgvectorInstalled(url: string): Promise<boolean> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return ((await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}
const runRecipe = Boolean(adminUrl?.startsWith('postgres') && bin && (await pgvectorInstalled(adminUrl)));
if (adminUrl?.startsWith('postgres') && !runRecipe) console.warn('PostgreSQL backup recipe skipped: pg_dump or the pgvector extension is not installed (scripts/install-pgvector.sh)');

function run(tool: string, args: string[]) {
  const result = spawnSync(path.join(bin!, tool), args, { encoding: 'utf8' });
  return { code: result.status, stderr: result.stderr };
}

/** A URL of `database` on the test server, signed in as `user`. */
function urlOf(database: string, user: string): string {
  const url = new URL(adminUrl!);
  url.pathname = `/${database}`;
  url.username = user;
  return url.toString();
}

describe.runIf(runRecipe)('the PostgreSQL backup recipe', () => {
  const appRole = `scholia_app_${randomBytes(4).toString('hex')}`;
  const targets: ScratchDatabase[] = [];
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-pg-backup-'));
  const dump = path.join(folder, 'scholia.dump');
  let source: ScratchDatabase;
  let server: TestServer;

  async function admin(statement: string, url = adminUrl!): Promise<void> {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }

  /** An empty database owned by the application's role, as an operator would create it. */
  async function emptyTarget(): Promise<string> {
    const target = await createScratchDatabase(adminUrl!);
    targets.push(target);
    const name = new URL(target.url).pathname.slice(1);
    await admin(`ALTER DATABASE ${name} OWNER TO ${appRole}`);
    return name;
  }

  beforeAll(async () => {
    await admin(`CREATE ROLE ${appRole} LOGIN NOSUPERUSER`);
    source = await createScratchDatabase(adminUrl!);
    server = await startTestServer({ env: { SCHOLIA_DATABASE_URL: source.url } });
    const api = new TestApi(server.url, { apiKey: OWNER.apiKey });
    const me = (await api.get('/me')).body as { id: string };
    const dataset = await createDataset(api, (await createWorkspace(api)).id);
    await createField(api, dataset.id, { name: 'text' });
    const question = await createQuestion(api, dataset.id);
    expect((await api.post(`/datasets/${dataset.id}/vectors-settings`, { name: 'emb', title: 'Embedding', dimensions: 3 })).status).toBe(201);
    expect((await api.put(`/datasets/${dataset.id}/publish`)).status).toBe(200);
    const items = Array.from({ length: 12 }, (_, n) => ({
      fields: { text: `record ${n}` },
      responses: [{ user_id: me.id, status: 'submitted', values: { [question.name]: { value: `answer ${n}` } } }],
      suggestions: [{ question_id: question.id, value: `suggested ${n}` }],
      vectors: { emb: [1, n, 0.5] },
    }));
    const written = await api.post(`/datasets/${dataset.id}/records/bulk`, { items });
    expect(written.status, written.text).toBe(201);
    await server.close();
    expect(run('pg_dump', ['--format=custom', `--file=${dump}`, source.url]).code).toBe(0);
  });
  afterAll(async () => {
    for (const target of targets) await target.drop();
    await source?.drop();
    await admin(`DROP ROLE IF EXISTS ${appRole}`);
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('keeps every table, the vectors included, when a superuser created the extension first', async () => {
    const target = await emptyTarget();
    await admin('CREATE EXTENSION IF NOT EXISTS vector', urlOf(target, new URL(adminUrl!).username));
    const restore = run('pg_restore', ['--no-owner', '--no-comments', '--exit-on-error', `--dbname=${urlOf(target, appRole)}`, dump]);
    expect(restore.code, restore.stderr).toBe(0);

    const [before, after] = await Promise.all([readInventory(source.url), readInventory(urlOf(target, appRole))]);
    expect(before.counts).toMatchObject({ records: 12, responses: 12, suggestions: 12, vectors: 12 });
    expect(after.pgvector).toBe(true);
    expect(compareInventories(before, after)).toEqual([]);
  });

  it('stops with an error, instead of dropping the vectors table, when the extension is missing', async () => {
    const target = await emptyTarget();
    const restore = run('pg_restore', ['--no-owner', '--no-comments', '--exit-on-error', `--dbname=${urlOf(target, appRole)}`, dump]);
    expect(restore.code).not.toBe(0);
    expect(restore.stderr).toMatch(/permission denied to create extension "vector"/);
    const differences = compareInventories(await readInventory(source.url), await readInventory(urlOf(target, appRole)));
    expect(differences).toContain('the vector extension (pgvector) is missing in the restored database: create it as a superuser, then restore again');
  });

  it('the restore check finds what a restore that went on after errors left out', async () => {
    const target = await emptyTarget();
    // Without --exit-on-error pg_restore goes on past the extension and the tables that need it.
    run('pg_restore', ['--no-owner', `--dbname=${urlOf(target, appRole)}`, dump]);
    const differences = compareInventories(await readInventory(source.url), await readInventory(urlOf(target, appRole)));
    expect(differences).toContain('vectors: 12 in the source, no table in the restored database');
  });
});
