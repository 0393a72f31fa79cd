import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../test/api-client.js';
import { createPrincipals, type Principals } from '../../test/fixtures.js';
import { createSearchDataset, upsertRecords, type SearchDataset } from '../../test/search-fixtures.js';
import { createScratchDatabase, OWNER, startTestServer, type ScratchDatabase } from '../../test/test-server.js';
import { copySqliteToPostgres } from '../storage/copy-database.js';

/**
 * `copy-sqlite-to-postgres.ts`: a SQLite install copied into PostgreSQL answers the API the same
 * (records with relations, text/metadata/vector search, progress, a session token issued
 * before the copy). Runs when SCHOLIA_TEST_DATABASE_URL names a PostgreSQL server.
 */
const adminUrl = process.env.SCHOLIA_TEST_DATABASE_URL;
const onPostgres = adminUrl?.startsWith('postgres') ?? false;
const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Snapshot {
  records: unknown;
  text: unknown;
  metadata: unknown;
  vector: unknown;
  progress: unknown;
  me: unknown;
}

async function snapshot(url: string, ds: SearchDataset, token: string): Promise<Snapshot> {
  const owner = new TestApi(url, { apiKey: OWNER.apiKey });
  const search = async (body: unknown) => {
    const res = await owner.post(`/datasets/${ds.id}/records/search`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { total: res.body.total, ids: res.body.items.map((i: { record: { external_id: string } }) => i.record.external_id) };
  };
  const records = await owner.get(`/datasets/${ds.id}/records?include=responses,suggestions,vectors&limit=100`);
  expect(records.status).toBe(200);
  return {
    records: records.body,
    // text relevance differs (bm25 / ts_rank): compare the hit sets
    text: await search({ query: { text: { q: 'brown' } }, sort: [{ scope: { entity: 'record', property: 'inserted_at' }, order: 'asc' }] }),
    metadata: await search({
      filters: { type: 'and', and: [{ type: 'range', scope: { entity: 'metadata', metadata_property: 'n' }, ge: 2 }] },
      sort: [{ scope: { entity: 'metadata', metadata_property: 'n' }, order: 'desc' }],
    }),
    vector: await search({ query: { vector: { name: 'emb', value: [1, 0, 0] } } }),
    progress: (await owner.get(`/datasets/${ds.id}/progress`)).body,
    me: (await new TestApi(url, { token }).get('/me')).body,
  };
}

describe.skipIf(!onPostgres)('copy-sqlite-to-postgres', () => {
  let dataDir: string;
  let sqliteFile: string;
  let scratch: ScratchDatabase;
  let ds: SearchDataset;
  let token: string;
  let before: Snapshot;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-copy-'));
    sqliteFile = path.join(dataDir, 'scholia.db');
    const server = await startTestServer({ env: { SCHOLIA_DATABASE_URL: `sqlite:${sqliteFile}` } });
    try {
      const api = new TestApi(server.url);
      const p: Principals = await createPrincipals(api);
      ds = await createSearchDataset(api, p.workspace.id);
      await upsertRecords(api, ds.id, [
        {
          external_id: 'r1',
          fields: { text: 'The quick brown fox', context: 'jumps over the lazy dog' },
          metadata: { n: 1, score: 0.1, group: 'a' },
          vectors: { emb: [1, 0, 0] },
          suggestions: [{ question_id: ds.questionIds.label, value: 'positive', agent: 'model-a', score: 0.9, type: 'model' }],
          responses: [{ user_id: p.annotatorMember.id, status: 'submitted', values: { label: { value: 'positive' } } }],
        },
        { external_id: 'r2', fields: { text: 'café au lait', context: 'a brown drink' }, metadata: { n: 2, group: ['a', 'c'] }, vectors: { emb: [0, 1, 0] } },
        { external_id: 'r3', fields: { text: 'the brown dog' }, metadata: { n: 3 }, vectors: { emb: [0.9, 0.1, 0] } },
      ]);
      const login = await fetch(`${server.url}/api/v1/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: OWNER.username, password: OWNER.password }).toString(),
      });
      token = ((await login.json()) as { access_token: string }).access_token;
      before = await snapshot(server.url, ds, token);
    } finally {
      await server.close();
    }
    scratch = await createScratchDatabase(adminUrl!);
  });
  afterAll(async () => {
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies through the command line; the PostgreSQL server answers as the SQLite one did', async () => {
    const run = spawnSync('npx', ['tsx', 'src/tools/copy-sqlite-to-postgres.ts', sqliteFile, scratch.url], { cwd: SERVER_DIR, encoding: 'utf8' });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/records: 3 rows/);
    expect(run.stdout).toMatch(/rebuilt 1 text indexes/);

    // Another data folder: the session token is accepted through the secret copied with the data.
    const server = await startTestServer({ env: { SCHOLIA_DATABASE_URL: scratch.url } });
    try {
      const after = await snapshot(server.url, ds, token);
      expect(after).toEqual(before);
      expect((before.text as { ids: string[] }).ids).toEqual(['r1', 'r2', 'r3']);
      // new records continue after the copied rids, and are searchable
      const owner = new TestApi(server.url, { apiKey: OWNER.apiKey });
      await upsertRecords(owner, ds.id, [{ external_id: 'r4', fields: { text: 'brown bread' } }]);
      const res = await owner.post(`/datasets/${ds.id}/records/search`, { query: { text: { q: 'brown' } } });
      expect(res.body.total).toBe(4);
      const listed = await owner.get(`/datasets/${ds.id}/records?limit=100`);
      expect(listed.body.items.map((r: { external_id: string }) => r.external_id)).toEqual(['r1', 'r2', 'r3', 'r4']);
    } finally {
      await server.close();
    }
  });

  it('refuses a target that already holds data, and leaves it unchanged', async () => {
    await expect(copySqliteToPostgres(sqliteFile, scratch.url)).rejects.toThrow(/not empty/);
  });
});
