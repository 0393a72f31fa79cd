import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { createPrincipals, type Principals } from '../../../test/fixtures.js';
import { createSearchDataset, upsertRecords } from '../../../test/search-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { findRecordsByExternalIds, postgresExternalIdLookup } from './records.repository.js';

const onPostgres = (process.env.SCHOLIA_TEST_DATABASE_URL ?? '').startsWith('postgres');

let server: TestServer;
let api: TestApi;
let p: Principals;

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url);
  p = await createPrincipals(api);
});
afterAll(() => server.close());

const item = (n: number) => ({ external_id: `e${n}`, fields: { context: `record ${n}`, text: `text ${n}` } });

describe('records by external id', () => {
  it('finds the dataset’s records with those ids, and none of another dataset', async () => {
    const [mine, other] = [await createSearchDataset(api, p.workspace.id), await createSearchDataset(api, p.workspace.id)];
    const written = await upsertRecords(api, mine.id, [1, 2, 3].map(item));
    await upsertRecords(api, other.id, [4].map(item));
    const found = await findRecordsByExternalIds(server.app.database.db, mine.id, ['e3', 'e1', 'e4', 'missing']);
    expect(found.map((r) => [r.external_id, r.id]).sort()).toEqual(
      written.filter((r) => r.external_id !== 'e2').map((r) => [r.external_id, r.id]).sort(),
    );
  });

  it('stores and finds values that need quoting in any array or list form', async () => {
    const dataset = await createSearchDataset(api, p.workspace.id);
    const awkward = ['NULL', '', 'a "quoted" word', 'back\\slash \\\\ twice', '{braces}, commas', 'line\nbreak', "can't stop", 'emoji 🚀 é'];
    const items = awkward.map((text, i) => ({ external_id: text === '' ? 'empty' : text, fields: { context: text === '' ? 'x' : text, text: `${text} end` }, metadata: { note: text } }));
    const written = await upsertRecords(api, dataset.id, items);
    expect(written.map((r) => r.external_id)).toEqual(items.map((item) => item.external_id));
    const found = await findRecordsByExternalIds(server.app.database.db, dataset.id, items.map((item) => item.external_id));
    expect(found.map((r) => r.external_id).sort()).toEqual(items.map((item) => item.external_id).sort());
    for (const record of found) {
      const item = items.find((candidate) => candidate.external_id === record.external_id)!;
      expect(JSON.parse(record.fields as string)).toEqual(item.fields);
      expect(JSON.parse(record.metadata as string)).toEqual(item.metadata);
    }
    for (const [q, field, expected] of [["can't", 'context', ["can't stop"]], ['slash', 'context', ['back\\slash \\\\ twice']], ['quoted', 'text', ['a "quoted" word']], ['🚀', 'context', ['emoji 🚀 é']]] as const) {
      const res = await p.owner.post(`/datasets/${dataset.id}/records/search`, { query: { text: { q, field } } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.items.map((hit: { record: { external_id: string } }) => hit.record.external_id), q).toEqual(expected);
    }
  });

  it.runIf(onPostgres)('probes the (dataset, external id) key on PostgreSQL while statistics still call the dataset small', async () => {
    const { db } = server.app.database;
    const dataset = await createSearchDataset(api, p.workspace.id);
    await upsertRecords(api, dataset.id, [0, 1, 2].map(item));
    await sql`ANALYZE records`.execute(db);
    for (let start = 3; start < 3_003; start += 500) {
      await upsertRecords(api, dataset.id, Array.from({ length: 500 }, (_, i) => item(start + i)));
    }
    const wanted = Array.from({ length: 500 }, (_, i) => `new-${i}`);
    const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${postgresExternalIdLookup(dataset.id, wanted)}`.execute(db);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toContain('Index Scan using records_dataset_external_id_uq on records');
    expect(plan).not.toMatch(/Bitmap Heap Scan on records|Seq Scan on records/);
  }, 60_000);
});

describe.runIf(onPostgres)('vectors on PostgreSQL', () => {
  it('are stored as their bytes, without an attempt to compress them', async () => {
    const { db } = server.app.database;
    const dataset = await createSearchDataset(api, p.workspace.id);
    const settings = await p.owner.post(`/datasets/${dataset.id}/vectors-settings`, { name: 'wide', title: 'wide', dimensions: 384 });
    expect(settings.status, JSON.stringify(settings.body)).toBe(201);
    // Zeros compress to almost nothing: only a column that is never compressed keeps all 3 KiB.
    const [record] = await upsertRecords(api, dataset.id, [{ ...item(1), vectors: { wide: Array(384).fill(0) } }]);
    const { rows } = await sql<{ compression: string | null; size: number }>`
      SELECT pg_column_compression(value) AS compression, pg_column_size(value) AS size FROM vectors
      WHERE record_id = ${record!.id} AND vector_settings_id = ${settings.body.id}`.execute(db);
    expect(rows).toEqual([{ compression: null, size: 384 * 8 }]);
    const read = await p.owner.get(`/records/${record!.id}?include=vectors`);
    expect(read.body.vectors.wide).toEqual(Array(384).fill(0));
  });
});

