import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from './api-client.js';
import { CHILD_OWNER, startChildServer, type ChildServer } from './reliability/child-server.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * `npm start` runs the compiled server, not the sources the other tests load through tsx: a file
 * the build misses or an import that only resolves under tsx would break installs and no other
 * test would notice.
 */
describe('the compiled server (npm start)', () => {
  let server: ChildServer;
  let datasetId: string;

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts/build-server.mjs')], { stdio: 'pipe' });
    server = await startChildServer({ compiled: true });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('runs without a TypeScript loader', async () => {
    const args = (server.process.spawnargs ?? []).join(' ');
    expect(args).toContain('dist/server.js');
    expect(args).not.toContain('tsx');
  });

  it('serves every resource and validates payloads with the wire schemas', async () => {
    const owner = new TestApi(server.url, { apiKey: CHILD_OWNER.apiKey });
    expect((await owner.get('/me')).body).toMatchObject({ username: CHILD_OWNER.username, role: 'owner' });

    const workspace = await owner.post('/workspaces', { name: 'compiled' });
    expect(workspace.status).toBe(201);
    const dataset = await owner.post('/datasets', { name: 'compiled', workspace_id: workspace.body.id });
    expect(dataset.status).toBe(201);
    datasetId = dataset.body.id;
    await owner.post(`/datasets/${dataset.body.id}/fields`, { name: 'text', title: 'Text', settings: { type: 'text' } });
    await owner.post(`/datasets/${dataset.body.id}/questions`, {
      name: 'label',
      title: 'Label',
      required: true,
      settings: { type: 'label_selection', options: [{ value: 'a', text: 'A' }, { value: 'b', text: 'B' }] },
    });
    const published = await owner.put(`/datasets/${dataset.body.id}/publish`);
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const upsert = await owner.put(`/datasets/${dataset.body.id}/records/bulk`, { items: [{ fields: { text: 'compiled servers search too' } }] });
    expect(upsert.status).toBe(200);
    const search = await owner.post(`/datasets/${dataset.body.id}/records/search`, { query: { text: { q: 'search' } } });
    expect(search.body.total).toBe(1);

    const refused = await owner.post('/workspaces', { name: 42 });
    expect(refused.status).toBe(422);
    expect(refused.body).toHaveProperty('detail');
  });

  it('starts the metadata column worker from its compiled file', async () => {
    // The sources start it through the TypeScript loader; the build must ship the plain-JS worker.
    const worker = new Worker(path.join(repoRoot, 'server/dist/storage/search/metadata-columns.worker.js'), {
      workerData: { source: { kind: 'sqlite', file: path.join(server.dataDir, 'scholia.db') }, datasetId, names: ['missing'] },
    });
    const columns = await new Promise<{ rids: Float64Array; version: number; columns: Map<string, { kind: string }> }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    expect(columns.rids).toHaveLength(1);
    expect(columns.version).toBeGreaterThan(0);
    expect(columns.columns.get('missing')).toMatchObject({ kind: 'number' });
  });
});
