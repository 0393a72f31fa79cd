import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { seedDataset, type SeededDataset } from '../../../test/dataset-fixtures.js';
import { createPrincipals } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { up as storeVectorsAsFloat64 } from '../../storage/migrations/202611250400_store_vectors_as_float64.js';

let server: TestServer;
let api: TestApi;
let dataset: SeededDataset;

const EXACT = [0.1234567890123456, -1e-300, 123456789.98765432];

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url).as({ apiKey: 'owner.apikey' });
  const principals = await createPrincipals(api);
  dataset = await seedDataset(server.app.database.db, server.app.database.dialect, {
    workspaceId: principals.workspace.id,
    vectors: [{ name: 'emb', dimensions: 3 }],
  });
});
afterAll(() => server.close());

async function readVectors(recordId: string) {
  const res = await api.get(`/records/${recordId}?include=vectors`);
  expect(res.status).toBe(200);
  return res.body.vectors;
}

describe('vector values', () => {
  it('read back exactly as logged, through a record read and a search', async () => {
    const res = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ external_id: 'exact', fields: { text: 'exact vector' }, vectors: { emb: EXACT } }] });
    expect(res.status).toBe(200);
    const id = res.body.items[0].id;
    expect(await readVectors(id)).toEqual({ emb: EXACT });

    const search = await api.post(`/me/datasets/${dataset.id}/records/search?include=vectors`, {
      query: { vector: { name: 'emb', value: EXACT } },
    });
    expect(search.status).toBe(200);
    expect(search.body.items[0].record.vectors).toEqual({ emb: EXACT });
    expect(search.body.items[0].query_score).toBeCloseTo(1, 6);
  });

  it('stored as float32 before float64 storage are migrated to the decimals they were served as', async () => {
    const res = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ external_id: 'legacy', fields: { text: 'legacy vector' }, vectors: { emb: [1, 2, 3] } }] });
    const id = res.body.items[0].id;
    const float32 = Float32Array.from([0.1, -0.30000001192092896, 1234.5677]);
    const db = server.app.database.db;
    await sql`UPDATE vectors SET value = ${Buffer.from(float32.buffer)} WHERE record_id = ${id}`.execute(db);
    await storeVectorsAsFloat64(db as never);
    expect(await readVectors(id)).toEqual({ emb: [0.1, -0.3, 1234.5677] });
  });
});

describe('PUT /datasets/{id}/records/bulk with "fields": null', () => {
  it('refuses an existing record as the reference does and leaves it unchanged', async () => {
    const created = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ external_id: 'keep', fields: { text: 'kept text' } }] });
    expect(created.status).toBe(200);
    const res = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ external_id: 'keep', fields: null, metadata: null }] });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: 'Record at position 0 is not valid because fields cannot be empty' });
    const record = await api.get(`/records/${created.body.items[0].id}`);
    expect(record.body.fields).toEqual({ text: 'kept text' });
  });

  it('still keeps the fields of an existing record when the key is absent', async () => {
    const created = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ external_id: 'absent', fields: { text: 'first' } }] });
    const res = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ external_id: 'absent', metadata: null }] });
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toMatchObject({ id: created.body.items[0].id, fields: { text: 'first' } });
  });
});
