import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { seedDataset } from '../../../test/dataset-fixtures.js';
import { createPrincipals, type Principals } from '../../../test/fixtures.js';
import { OWNER, startTestServer, type TestServer } from '../../../test/test-server.js';

let server: TestServer;
let api: TestApi;
let principals: Principals;

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url).as({ apiKey: OWNER.apiKey });
  principals = await createPrincipals(api);
});
afterAll(() => server.close());

const newDataset = () =>
  seedDataset(server.app.database.db, server.app.database.dialect, {
    workspaceId: principals.workspace.id,
    vectors: [{ name: 'emb', dimensions: 3 }, { name: 'other', dimensions: 2 }],
  });


describe('bulk record replies repeat the vectors as they were sent', () => {
  it('answers PUT and POST with the vector text of the request, which reads back as the stored numbers', async () => {
    const dataset = await newDataset();
    const put = await api.sendJsonText('PUT', `/datasets/${dataset.id}/records/bulk`, '{"items":[{"external_id":"a","fields":{"text":"one"},"vectors":{"emb":[0.10, 1e-3,-2.50]}}]}');
    expect(put.status, put.text).toBe(200);
    expect(put.text).toContain('"vectors":{"emb":[0.10, 1e-3,-2.50]}');
    const id = JSON.parse(put.text).items[0].id;
    expect((await api.get(`/records/${id}?include=vectors`)).body.vectors).toEqual({ emb: [0.1, 0.001, -2.5] });

    const post = await api.sendJsonText('POST', `/datasets/${dataset.id}/records/bulk`, '{"items":[{"fields":{"text":"two"},"vectors":{"other":[ 1.0 ,\n 2 ]}}]}');
    expect(post.status, post.text).toBe(201);
    expect(post.text).toContain('"vectors":{"other":[ 1.0 ,\n 2 ]}');
    expect(JSON.parse(post.text).items[0].vectors).toEqual({ other: [1, 2] });
  });

  it('stays exact JSON whatever the rest of the body holds', async () => {
    const dataset = await newDataset();
    const token = 'vector-000000000000000000000000-0';
    const body =
      '{"items":[' +
      `{"external_id":"b","fields":{"text":"a \\"quoted\\" ] } [ { \\\\\\" \\"vectors\\": {\\"emb\\": [9,9,9]} ${token}"},` +
      '"metadata":{"nested":[[1,[2]],{"vectors":{"emb":[7,7,7]}}]},' +
      '"vectors":{"emb":[1,2,3],"emb":[4,5,6],"other":[0.5,0.25]}},' +
      '{"external_id":"c","fields":{"text":"plain"},"vect\\u006frs":{"emb":[0.30,0.20,0.10]}},' +
      '{"external_id":"d","fields":{"text":"none"}}' +
      '],"items":[' +
      `{"external_id":"b","fields":{"text":"a \\"quoted\\" ] } [ { \\\\\\" \\"vectors\\": {\\"emb\\": [9,9,9]} ${token}"},` +
      '"metadata":{"nested":[[1,[2]],{"vectors":{"emb":[7,7,7]}}]},' +
      '"vectors":{"emb":[1,2,3],"emb":[4,5,6.000],"other":[0.5,0.25]}},' +
      '{"external_id":"c","fields":{"text":"plain"},"vect\\u006frs":{"emb":[0.30,0.20,0.10]}}' +
      ']}';
    const expected = JSON.parse(body);
    const reply = await api.sendJsonText('PUT', `/datasets/${dataset.id}/records/bulk`, body);
    expect(reply.status, reply.text).toBe(200);
    const items = JSON.parse(reply.text).items;
    expect(items.map((r: { fields: unknown }) => r.fields)).toEqual(expected.items.map((i: { fields: unknown }) => i.fields));
    expect(items.map((r: { vectors: unknown }) => r.vectors)).toEqual([{ emb: [4, 5, 6], other: [0.5, 0.25] }, { emb: [0.3, 0.2, 0.1] }]);
    expect(reply.text).toContain('[4,5,6.000]');
    expect(items[0].metadata).toEqual(expected.items[0].metadata);
  });

  it('formats vectors read back from the database as usual (records that existed)', async () => {
    const dataset = await newDataset();
    await api.sendJsonText('PUT', `/datasets/${dataset.id}/records/bulk`, '{"items":[{"external_id":"e","fields":{"text":"x"},"vectors":{"emb":[1.50,2,3]}}]}');
    const again = await api.sendJsonText('PUT', `/datasets/${dataset.id}/records/bulk`, '{"items":[{"external_id":"e","vectors":{"other":[1.50,2]}}]}');
    expect(again.status, again.text).toBe(200);
    expect(JSON.parse(again.text).items[0].vectors).toEqual({ emb: [1.5, 2, 3], other: [1.5, 2] });
  });
});
