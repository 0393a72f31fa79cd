import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimNextJob, enqueueJob } from '../../src/jobs/job-queue.js';
import type { Database } from '../../src/storage/dialect.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { metadataColumnsSettled, resetMetadataColumns } from '../../src/storage/search/metadata-columns.js';
import { TestApi } from '../api-client.js';
import { addMember, createUser, createWorkspace, type TestUser } from '../fixtures.js';
import { createSearchDataset, upsertRecords } from '../search-fixtures.js';
import { createScratchDatabase, OWNER, startTestServer, type ScratchDatabase, type TestServer } from '../test-server.js';

/**
 * Two server processes' worth of state on one PostgreSQL database (scale issue): each instance
 * has its own data folder, pool, caches and job worker; only the database is shared. Runs when
 * SCHOLIA_TEST_DATABASE_URL names a PostgreSQL server (scripts/with-postgres.mjs).
 */
const adminUrl = process.env.SCHOLIA_TEST_DATABASE_URL;
const onPostgres = adminUrl?.startsWith('postgres') ?? false;

describe.skipIf(!onPostgres)('two server instances on one PostgreSQL database', () => {
  let scratch: ScratchDatabase;
  let a: TestServer;
  let b: TestServer;
  let apiA: TestApi;
  let apiB: TestApi;

  beforeAll(async () => {
    scratch = await createScratchDatabase(adminUrl!);
    // No SCHOLIA_JWT_SECRET: the instances must agree through the secret stored in the database.
    a = await startTestServer({ env: { SCHOLIA_DATABASE_URL: scratch.url } });
    b = await startTestServer({ env: { SCHOLIA_DATABASE_URL: scratch.url } });
    apiA = new TestApi(a.url);
    apiB = new TestApi(b.url);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await scratch?.drop();
  });

  it('a token issued by one instance is accepted by the other', async () => {
    const res = await fetch(`${a.url}/api/v1/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: OWNER.username, password: OWNER.password }).toString(),
    });
    expect(res.status).toBe(201);
    const { access_token: token } = (await res.json()) as { access_token: string };
    const me = await apiB.as({ token }).get('/me');
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body.username).toBe(OWNER.username);
  });

  it('concurrent submits on both instances leave exact statuses (min_submitted 2)', async () => {
    const owner = apiA.as({ apiKey: OWNER.apiKey });
    const workspace = await createWorkspace(apiA);
    const annotators: TestUser[] = [];
    for (let i = 0; i < 2; i++) {
      const user = await createUser(apiA, { role: 'annotator' });
      await addMember(apiA, workspace.id, user.id);
      annotators.push(user);
    }
    const created = await owner.post('/datasets', {
      name: `two-instances-${Date.now()}`,
      workspace_id: workspace.id,
      distribution: { strategy: 'overlap', min_submitted: 2 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const datasetId = created.body.id as string;
    expect((await owner.post(`/datasets/${datasetId}/fields`, { name: 'text', title: 'Text', required: true, settings: { type: 'text' } })).status).toBe(201);
    expect((await owner.post(`/datasets/${datasetId}/questions`, { name: 'q', title: 'Q', required: true, settings: { type: 'text' } })).status).toBe(201);
    expect((await owner.put(`/datasets/${datasetId}/publish`)).status).toBe(200);
    const items = Array.from({ length: 30 }, (_, i) => ({ external_id: `r${i}`, fields: { text: `record ${i}` } }));
    const records = await owner.put(`/datasets/${datasetId}/records/bulk`, { items });
    expect(records.status, JSON.stringify(records.body)).toBe(200);
    const ids = (records.body.items as { id: string }[]).map((r) => r.id);

    // Each record: annotator 0 submits through A while annotator 1 submits through B, all at once.
    // Records with an even index get both submits (completed); odd ones only one (pending).
    const submit = (api: TestApi, user: TestUser, id: string) =>
      api.as({ apiKey: user.apiKey }).post(`/records/${id}/responses`, { status: 'submitted', values: { q: { value: 'x' } } });
    const results = await Promise.all(
      ids.flatMap((id, i) => (i % 2 === 0 ? [submit(apiA, annotators[0], id), submit(apiB, annotators[1], id)] : [submit(apiB, annotators[0], id)])),
    );
    for (const result of results) expect(result.status, JSON.stringify(result.body)).toBe(201);

    for (const api of [apiA, apiB]) {
      const listed = await api.as({ apiKey: OWNER.apiKey }).get(`/datasets/${datasetId}/records?limit=100`);
      expect(listed.status).toBe(200);
      const byId = new Map((listed.body.items as { id: string; status: string }[]).map((r) => [r.id, r.status]));
      expect(ids.map((id) => byId.get(id))).toEqual(ids.map((_, i) => (i % 2 === 0 ? 'completed' : 'pending')));
      const progress = await api.as({ apiKey: OWNER.apiKey }).get(`/datasets/${datasetId}/progress`);
      expect(progress.body).toMatchObject({ total: 30, completed: 15, pending: 15 });
    }
  });

  it('the vector cache of one instance sees vectors written through the other', async () => {
    const owner = apiA.as({ apiKey: OWNER.apiKey });
    const workspace = await createWorkspace(apiA);
    const created = await owner.post('/datasets', { name: `vectors-${Date.now()}`, workspace_id: workspace.id });
    const datasetId = created.body.id as string;
    await owner.post(`/datasets/${datasetId}/fields`, { name: 'text', title: 'Text', required: true, settings: { type: 'text' } });
    await owner.post(`/datasets/${datasetId}/questions`, { name: 'q', title: 'Q', required: true, settings: { type: 'text' } });
    await owner.post(`/datasets/${datasetId}/vectors-settings`, { name: 'emb', title: 'emb', dimensions: 3 });
    expect((await owner.put(`/datasets/${datasetId}/publish`)).status).toBe(200);
    const search = (api: TestApi) =>
      api
        .as({ apiKey: OWNER.apiKey })
        .post(`/datasets/${datasetId}/records/search`, { query: { vector: { name: 'emb', value: [1, 0, 0] } } })
        .then((res) => (res.body.items as { record: { external_id: string } }[]).map((i) => i.record.external_id));

    const put = (api: TestApi, items: unknown[]) => api.as({ apiKey: OWNER.apiKey }).put(`/datasets/${datasetId}/records/bulk`, { items });
    expect((await put(apiA, [{ external_id: 'far', fields: { text: 'far' }, vectors: { emb: [0, 1, 0] } }])).status).toBe(200);
    expect(await search(apiA)).toEqual(['far']); // A caches the vector set
    expect((await put(apiB, [{ external_id: 'near', fields: { text: 'near' }, vectors: { emb: [1, 0.1, 0] } }])).status).toBe(200);
    expect(await search(apiA)).toEqual(['near', 'far']);
    expect((await put(apiB, [{ external_id: 'far', fields: { text: 'far' }, vectors: { emb: [1, 0, 0] } }])).status).toBe(200);
    expect(await search(apiA)).toEqual(['far', 'near']);
  });

  it('metadata columns read through one instance see metadata written through the other', async () => {
    resetMetadataColumns({ minRecords: 0, reloadCooldownMs: 0 });
    try {
      const workspace = await createWorkspace(apiA);
      const ds = await createSearchDataset(apiA, workspace.id);
      await upsertRecords(apiA, ds.id, Array.from({ length: 20 }, (_, i) => ({ external_id: `m${i}`, fields: { text: `record ${i}` }, metadata: { n: i } })));
      const atLeast = async (api: TestApi, n: number) => {
        const res = await api.as({ apiKey: OWNER.apiKey }).post(`/datasets/${ds.id}/records/search`, {
          filters: { and: [{ type: 'range', scope: { entity: 'metadata', metadata_property: 'n' }, ge: n }] },
          sort: [{ scope: { entity: 'metadata', metadata_property: 'n' }, order: 'desc' }],
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return (res.body.items as { record: { external_id: string } }[]).map((item) => item.record.external_id);
      };
      await atLeast(apiA, 18); // starts A's load of the columns
      await metadataColumnsSettled();
      expect(await atLeast(apiA, 18)).toEqual(['m19', 'm18']);
      await upsertRecords(apiB, ds.id, [{ external_id: 'm3', metadata: { n: 50 } }, { external_id: 'new', fields: { text: 'new' }, metadata: { n: 40 } }]);
      expect(await atLeast(apiA, 18)).toEqual(['m3', 'new', 'm19', 'm18']);
      await metadataColumnsSettled(); // the reload at the new version answers the same
      expect(await atLeast(apiA, 18)).toEqual(['m3', 'new', 'm19', 'm18']);
    } finally {
      resetMetadataColumns({ minRecords: 20_000, reloadCooldownMs: 30_000 });
    }
  });

  it('each job is taken by exactly one worker (two pools claiming at once)', async () => {
    const pools: Database[] = [await openDatabase(scratch.url), await openDatabase(scratch.url)];
    try {
      const type = 'test-two-instances'; // no instance's worker handles it: only the claimers below
      const queued = new Set<string>();
      for (let i = 0; i < 40; i++) queued.add((await enqueueJob(pools[0].db, type, { i })).id);
      const claimedBy = new Map<string, number>();
      let duplicates = 0;
      await Promise.all(
        pools.flatMap((pool, p) =>
          Array.from({ length: 4 }, async (_, w) => {
            for (;;) {
              const job = await claimNextJob(pool.db, `worker-${p}-${w}`, [type], pool.dialect);
              if (!job) return;
              if (claimedBy.has(job.id)) duplicates += 1;
              claimedBy.set(job.id, p);
            }
          }),
        ),
      );
      expect(duplicates).toBe(0);
      expect(new Set(claimedBy.keys())).toEqual(queued);
      const rows = await pools[0].db.selectFrom('jobs').select(['status', 'worker_id']).where('type', '=', type).execute();
      expect(rows.every((row) => row.status === 'started' && row.worker_id !== null)).toBe(true);
    } finally {
      for (const pool of pools) await pool.close();
    }
  });
});
