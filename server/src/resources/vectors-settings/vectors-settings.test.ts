import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { createDataset, createPublishedDataset } from '../../../test/datasets-api-fixtures.js';
import { createPrincipals, uniqueName, type Principals } from '../../../test/fixtures.js';
import { PRINCIPALS, READ_MATRIX, WRITE_MATRIX, clientOf } from '../../../test/policy-matrix.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

let server: TestServer;
let api: TestApi;
let p: Principals;
const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?$/;
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url);
  p = await createPrincipals(api);
});
afterAll(() => server.close());

const createSettings = async (datasetId: string, body: Record<string, unknown> = {}) => {
  const res = await p.owner.post(`/datasets/${datasetId}/vectors-settings`, { name: uniqueName('v'), title: 'V', dimensions: 3, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

describe('POST /datasets/{id}/vectors-settings', () => {
  it('creates (also after publish) and lists in creation order', async () => {
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const res = await p.owner.post(`/datasets/${dataset.id}/vectors-settings`, { name: 'emb', title: 'Embedding', dimensions: 384, id: null });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'emb',
      title: 'Embedding',
      dimensions: 384,
      dataset_id: dataset.id,
      inserted_at: expect.stringMatching(TS),
      updated_at: expect.stringMatching(TS),
    });
    const second = await createSettings(dataset.id);
    expect((await p.owner.get(`/datasets/${dataset.id}/vectors-settings`)).body).toEqual({ items: [res.body, second] });
  });

  it('422 after 5 settings, checked before the name', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const first = await createSettings(dataset.id);
    for (let i = 0; i < 4; i += 1) await createSettings(dataset.id);
    const res = await p.owner.post(`/datasets/${dataset.id}/vectors-settings`, { name: first.name, title: 'T', dimensions: 2 });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: `The maximum number of vector settings has been reached for dataset with id \`${dataset.id}\`` });
  });

  it('409 on a duplicate name', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    await createSettings(dataset.id, { name: 'emb' });
    const res = await p.owner.post(`/datasets/${dataset.id}/vectors-settings`, { name: 'emb', title: 'T', dimensions: 2 });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: `Vector settings with name \`emb\` already exists for dataset with id \`${dataset.id}\`` });
  });

  it('422 validation for dimensions <= 0, missing title, non-integer dimensions', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    for (const body of [{ name: 'a', title: 'T', dimensions: 0 }, { name: 'a', dimensions: 2 }, { name: 'a', title: 'T', dimensions: 1.5 }]) {
      const res = await p.owner.post(`/datasets/${dataset.id}/vectors-settings`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail.code).toBe('argilla.api.errors::ValidationError');
    }
  });

  it('404 for an unknown dataset', async () => {
    const res = await p.owner.post(`/datasets/${MISSING}/vectors-settings`, { name: 'a', title: 'T', dimensions: 2 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Dataset with id \`${MISSING}\` not found` });
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    const res = await clientOf(p, who).post(`/datasets/${dataset.id}/vectors-settings`, { name: 'a', title: 'T', dimensions: 2 });
    expect(res.status).toBe(WRITE_MATRIX(201)[who]);
  });
});

describe('GET /datasets/{id}/vectors-settings', () => {
  it('404 for an unknown dataset', async () => {
    expect((await p.owner.get(`/datasets/${MISSING}/vectors-settings`)).status).toBe(404);
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    expect((await clientOf(p, who).get(`/datasets/${dataset.id}/vectors-settings`)).status).toBe(READ_MATRIX[who]);
  });
});

describe('PATCH /vectors-settings/{id}', () => {
  it('updates the title only', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const settings = await createSettings(dataset.id);
    const res = await p.owner.patch(`/vectors-settings/${settings.id}`, { title: 'New', name: 'ignored', dimensions: 9 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...settings, title: 'New', updated_at: res.body.updated_at });
  });

  it('422 when title is missing or null', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const settings = await createSettings(dataset.id);
    const missing = await p.owner.patch(`/vectors-settings/${settings.id}`, {});
    expect(missing.status).toBe(422);
    expect(missing.body.detail.params.errors[0]).toMatchObject({ type: 'missing', loc: ['body', 'title'] });
    expect((await p.owner.patch(`/vectors-settings/${settings.id}`, { title: null })).status).toBe(422);
  });

  it('404 for unknown settings', async () => {
    const res = await p.owner.patch(`/vectors-settings/${MISSING}`, { title: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `VectorSettings with id \`${MISSING}\` not found` });
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    const settings = await createSettings(dataset.id);
    expect((await clientOf(p, who).patch(`/vectors-settings/${settings.id}`, { title: 'x' })).status).toBe(WRITE_MATRIX(200)[who]);
  });
});

describe('DELETE /vectors-settings/{id}', () => {
  it('deletes and returns the settings', async () => {
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const settings = await createSettings(dataset.id);
    const res = await p.owner.delete(`/vectors-settings/${settings.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(settings);
    expect((await p.owner.get(`/datasets/${dataset.id}/vectors-settings`)).body).toEqual({ items: [] });
  });

  it('404 for unknown settings', async () => {
    expect((await p.owner.delete(`/vectors-settings/${MISSING}`)).body).toEqual({ detail: `VectorSettings with id \`${MISSING}\` not found` });
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    const settings = await createSettings(dataset.id);
    expect((await clientOf(p, who).delete(`/vectors-settings/${settings.id}`)).status).toBe(WRITE_MATRIX(200)[who]);
  });
});
