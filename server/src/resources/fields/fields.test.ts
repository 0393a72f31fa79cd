import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { createDataset, createField, createPublishedDataset } from '../../../test/datasets-api-fixtures.js';
import { createPrincipals, uniqueName, validationError, type Principals } from '../../../test/fixtures.js';
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

describe('POST /datasets/{id}/fields', () => {
  it('creates each type with its defaults and exact output keys', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ type: 'text' }, { type: 'text', use_markdown: false }],
      [{ type: 'text', use_markdown: true, extra: 1 }, { type: 'text', use_markdown: true }],
      [{ type: 'image' }, { type: 'image' }],
      [{ type: 'chat' }, { type: 'chat', use_markdown: true }],
      [{ type: 'custom', template: '<p>{{record.fields.x}}</p>' }, { type: 'custom', template: '<p>{{record.fields.x}}</p>', advanced_mode: false }],
    ];
    for (const [settings, expected] of cases) {
      const name = uniqueName('f');
      const res = await p.owner.post(`/datasets/${dataset.id}/fields`, { name, title: 'T', settings, description: 'ignored', id: null });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name,
        title: 'T',
        required: false,
        settings: expected,
        dataset_id: dataset.id,
        inserted_at: expect.stringMatching(TS),
        updated_at: expect.stringMatching(TS),
      });
    }
    const list = await p.owner.get(`/datasets/${dataset.id}/fields`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((f: { settings: unknown }) => f.settings)).toEqual(cases.map(([, e]) => e));
  });

  it('required: true is kept', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    expect((await createField(api, dataset.id, { required: true })).required).toBe(true);
  });

  it('422 on a published dataset, checked before the name', async () => {
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const res = await p.owner.post(`/datasets/${dataset.id}/fields`, { name: 'text', title: 'T', settings: { type: 'text' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: 'Field cannot be created for a published dataset' });
  });

  it('409 on a duplicate name', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    await createField(api, dataset.id, { name: 'text' });
    const res = await p.owner.post(`/datasets/${dataset.id}/fields`, { name: 'text', title: 'T', settings: { type: 'text' } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: `Field with name \`text\` already exists for dataset with id \`${dataset.id}\`` });
  });

  it('422 validation: unknown type, missing template, bad title', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const unknown = await p.owner.post(`/datasets/${dataset.id}/fields`, { name: 'a', title: 'T', settings: { type: 'video' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail.params.errors[0].loc).toEqual(['body', 'settings', 'type']);
    const custom = await p.owner.post(`/datasets/${dataset.id}/fields`, { name: 'a', title: 'T', settings: { type: 'custom' } });
    expect(custom.status).toBe(422);
    expect(custom.body).toEqual(validationError({ type: 'missing', loc: ['body', 'settings', 'custom', 'template'], msg: 'Field required' }));
    const markdown = await p.owner.post(`/datasets/${dataset.id}/fields`, { name: 'a', title: 'T', settings: { type: 'text', use_markdown: 'yes' } });
    expect(markdown.body).toEqual(
      validationError({ type: 'bool_type', loc: ['body', 'settings', 'text', 'use_markdown'], msg: 'Input should be a valid boolean' }),
    );
    const title = await p.owner.post(`/datasets/${dataset.id}/fields`, { name: 'a', title: '', settings: { type: 'text' } });
    expect(title.status).toBe(422);
    expect(title.body.detail.params.errors[0].loc).toEqual(['body', 'title']);
  });

  it('404 for an unknown dataset', async () => {
    const res = await p.owner.post(`/datasets/${MISSING}/fields`, { name: 'a', title: 'T', settings: { type: 'text' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Dataset with id \`${MISSING}\` not found` });
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    const res = await clientOf(p, who).post(`/datasets/${dataset.id}/fields`, { name: 'a', title: 'T', settings: { type: 'text' } });
    expect(res.status).toBe(WRITE_MATRIX(201)[who]);
  });
});

describe('GET /datasets/{id}/fields', () => {
  it('404 for an unknown dataset', async () => {
    expect((await p.owner.get(`/datasets/${MISSING}/fields`)).status).toBe(404);
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    expect((await clientOf(p, who).get(`/datasets/${dataset.id}/fields`)).status).toBe(READ_MATRIX[who]);
  });
});

describe('PATCH /fields/{id}', () => {
  it('updates title and settings, ignores name and required, also after publish', async () => {
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const field = (await p.owner.get(`/datasets/${dataset.id}/fields`)).body.items[0];
    const res = await p.owner.patch(`/fields/${field.id}`, {
      title: 'New title',
      name: 'renamed',
      required: false,
      settings: { type: 'text', use_markdown: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...field, title: 'New title', settings: { type: 'text', use_markdown: true }, updated_at: res.body.updated_at });
    expect((await p.owner.get(`/datasets/${dataset.id}/fields`)).body.items[0]).toEqual(res.body);
  });

  it('custom settings need template and advanced_mode', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const field = await createField(api, dataset.id, { settings: { type: 'custom', template: 'a' } });
    const partial = await p.owner.patch(`/fields/${field.id}`, { settings: { type: 'custom', template: 'b' } });
    expect(partial.status).toBe(422);
    expect(partial.body).toEqual(validationError({ type: 'missing', loc: ['body', 'settings', 'custom', 'advanced_mode'], msg: 'Field required' }));
    const ok = await p.owner.patch(`/fields/${field.id}`, { settings: { type: 'custom', template: 'b', advanced_mode: true } });
    expect(ok.body.settings).toEqual({ type: 'custom', template: 'b', advanced_mode: true });
  });

  it('422 on a type change', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const field = await createField(api, dataset.id);
    const res = await p.owner.patch(`/fields/${field.id}`, { settings: { type: 'chat', use_markdown: true } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: "Field type cannot be changed. Expected 'text' but got 'chat'" });
  });

  it('422 when title or settings is null', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const field = await createField(api, dataset.id);
    expect((await p.owner.patch(`/fields/${field.id}`, { title: null })).status).toBe(422);
    expect((await p.owner.patch(`/fields/${field.id}`, { settings: null })).status).toBe(422);
  });

  it('404 for an unknown field', async () => {
    const res = await p.owner.patch(`/fields/${MISSING}`, { title: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Field with id \`${MISSING}\` not found` });
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    const field = await createField(api, dataset.id);
    expect((await clientOf(p, who).patch(`/fields/${field.id}`, { title: 'x' })).status).toBe(WRITE_MATRIX(200)[who]);
  });
});

describe('DELETE /fields/{id}', () => {
  it('deletes from a draft and returns the field', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const field = await createField(api, dataset.id);
    const res = await p.owner.delete(`/fields/${field.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(field);
    expect((await p.owner.get(`/datasets/${dataset.id}/fields`)).body).toEqual({ items: [] });
  });

  it('422 on a published dataset', async () => {
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const field = (await p.owner.get(`/datasets/${dataset.id}/fields`)).body.items[0];
    const res = await p.owner.delete(`/fields/${field.id}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: 'Fields cannot be deleted for a published dataset' });
  });

  it('404 for an unknown field', async () => {
    const res = await p.owner.delete(`/fields/${MISSING}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Field with id \`${MISSING}\` not found` });
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    const field = await createField(api, dataset.id);
    expect((await clientOf(p, who).delete(`/fields/${field.id}`)).status).toBe(WRITE_MATRIX(200)[who]);
  });
});
