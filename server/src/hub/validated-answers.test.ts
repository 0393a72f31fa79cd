import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../test/api-client.js';
import { seedDataset } from '../../test/dataset-fixtures.js';
import { createPrincipals, type Principals } from '../../test/fixtures.js';
import { startTestServer, OWNER, type TestServer } from '../../test/test-server.js';
import { buildHubExportFiles } from './hub-export.js';

let server: TestServer;
let api: TestApi;
let principals: Principals;

const values = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).map(([k, value]) => [k, { value }]));

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url).as({ apiKey: OWNER.apiKey });
  principals = await createPrincipals(api);
});
afterAll(() => server.close());

describe('Hub export of validated records', () => {
  it('carries each question\'s final answer in `<question>.validated`, null where a record is not validated', async () => {
    const dataset = await seedDataset(server.app.database.db, server.app.database.dialect, { workspaceId: principals.workspace.id });
    const items = ['first', 'second'].map((text) => ({ fields: { text }, external_id: text }));
    const [validated] = (await api.put(`/datasets/${dataset.id}/records/bulk`, { items })).body.items.map((i: { id: string }) => i.id);
    const ranking = [{ value: 'b', rank: 1 }, { value: 'a', rank: 2 }, { value: 'c', rank: 3 }];
    const res = await api.put(`/records/${validated}/validation`, { values: values({ label: 'negative', topics: ['tech'], rating: 2, ranking }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const { files } = await buildHubExportFiles(server.app.database.db, { dataset_id: dataset.id, name: 'alice/reviewed', subset: 'default', split: 'train' });
    const parquet = files.find((f) => f.path.endsWith('.parquet'))!;
    const rows = (await parquetReadObjects({ file: Uint8Array.from(parquet.content).buffer as ArrayBuffer })) as Record<string, unknown>[];
    expect(rows.map((row) => row.id)).toEqual(['first', 'second']);
    expect(rows[0]).toMatchObject({
      'label.validated': 'negative',
      'topics.validated': ['tech'],
      'rating.validated': 2n,
      'ranking.validated': [{ value: 'b', rank: 1n }, { value: 'a', rank: 2n }, { value: 'c', rank: 3n }],
    });
    expect(rows[0]['comment.validated'] ?? null).toBeNull();
    for (const question of ['label', 'topics', 'rating', 'ranking', 'entities']) expect(rows[1][`${question}.validated`] ?? null).toBeNull();
  });
});
