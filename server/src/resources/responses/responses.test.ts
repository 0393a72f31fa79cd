import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromJson } from '../../storage/json.js';
import { TestApi } from '../../../test/api-client.js';
import { seedDataset, type SeededDataset } from '../../../test/dataset-fixtures.js';
import { createPrincipals, createUser, FORBIDDEN, UNAUTHORIZED, type Principals, type TestUser } from '../../../test/fixtures.js';
import { clientOf, PRINCIPALS, type PrincipalName } from '../../../test/policy-matrix.js';
import { startTestServer, OWNER, type TestServer } from '../../../test/test-server.js';

let server: TestServer;
let api: TestApi;
let principals: Principals;
let dataset: SeededDataset;
let annotator2: TestUser;

async function newDataset(minSubmitted = 1) {
  return seedDataset(server.app.database.db, server.app.database.dialect, { workspaceId: principals.workspace.id, minSubmitted });
}

async function newRecord(ds: SeededDataset = dataset, text = 'Alice met Bob in Paris'): Promise<string> {
  const res = await api.put(`/datasets/${ds.id}/records/bulk`, { items: [{ fields: { text } }] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items[0].id;
}

const submitted = (values: Record<string, unknown> = {}) => ({
  status: 'submitted',
  values: Object.fromEntries(Object.entries({ label: 'positive', ...values }).map(([k, v]) => [k, { value: v }])),
});

const datasetRow = (id: string) => server.app.database.db.selectFrom('datasets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url).as({ apiKey: OWNER.apiKey });
  principals = await createPrincipals(api);
  annotator2 = await createUser(api, { role: 'annotator' });
  await api.post(`/workspaces/${principals.workspace.id}/users`, { user_id: annotator2.id });
  dataset = await newDataset();
});
afterAll(() => server.close());

describe('POST /records/{id}/responses', () => {
  it('creates the caller response (201), bumps last_activity_at only, remembers the user', async () => {
    const recordId = await newRecord();
    const before = await datasetRow(dataset.id);
    const res = await principals.annotatorMember.api.post(`/records/${recordId}/responses`, submitted({ comment: 'nice', rating: 4 }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      values: { label: { value: 'positive' }, comment: { value: 'nice' }, rating: { value: 4 } },
      status: 'submitted',
      record_id: recordId,
      user_id: principals.annotatorMember.id,
      inserted_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const after = await datasetRow(dataset.id);
    expect(after.updated_at).toBe(before.updated_at);
    expect(after.last_activity_at > before.last_activity_at).toBe(true);
    const users = await server.app.database.db.selectFrom('dataset_users').select('user_id').where('dataset_id', '=', dataset.id).execute();
    expect(users.map((u) => u.user_id)).toContain(principals.annotatorMember.id);
    const record = await server.app.database.db.selectFrom('records').select(['status', 'submitted_count']).where('id', '=', recordId).executeTakeFirstOrThrow();
    expect(record).toEqual({ status: 'completed', submitted_count: 1 });
  });

  it('409s a second response by the same user', async () => {
    const recordId = await newRecord();
    await principals.annotatorMember.api.post(`/records/${recordId}/responses`, { status: 'draft', values: {} });
    const res = await principals.annotatorMember.api.post(`/records/${recordId}/responses`, { status: 'discarded' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      detail: `Response already exists for record with id \`${recordId}\` and by user with id \`${principals.annotatorMember.id}\``,
    });
  });

  it('checks the values before looking for an existing response, as the reference does (422, not 409)', async () => {
    const recordId = await newRecord();
    await principals.annotatorMember.api.post(`/records/${recordId}/responses`, { status: 'draft', values: {} });
    const res = await principals.annotatorMember.api.post(`/records/${recordId}/responses`, submitted({ rating: 9 }));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: '9 is not a valid rating for rating question.\nValid ratings are: [1, 2, 3, 4, 5]' });
  });

  it('404s an unknown record and 422s a malformed id', async () => {
    const id = randomUUID();
    const res = await api.post(`/records/${id}/responses`, submitted());
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Record with id \`${id}\` not found` });
    const bad = await api.post('/records/nope/responses', submitted());
    expect(bad.status).toBe(422);
    expect(bad.body.detail.params.errors[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'record_id'] });
  });

  const invalid: [string, unknown, string][] = [
    ['submitted without values', { status: 'submitted', values: {} }, 'missing response values for submitted response'],
    ['submitted null values', { status: 'submitted', values: null }, 'missing response values for submitted response'],
    ['missing required', { status: 'submitted', values: { comment: { value: 'x' } } }, "missing response value for required question with name='label'"],
    ['unknown question', { status: 'draft', values: { nope: { value: 'x' } } }, "found response value for non configured question with name='nope'"],
    ['text type', submitted({ comment: 3 }), "text question expects a text value, found <class 'int'>"],
    ['label option', submitted({ label: 'other' }), "'other' is not a valid label for label selection question.\nValid labels are: ['positive', 'negative', 'neutral']"],
    ['multi-label empty', submitted({ topics: [] }), 'multi label selection questions expects a list of values, found empty list'],
    ['multi-label type', submitted({ topics: 'sports' }), "multi label selection questions expects a list of values, found <class 'str'>"],
    ['multi-label duplicates', submitted({ topics: ['tech', 'tech'] }), 'multi label selection questions expect a list of unique values, but duplicates were found'],
    ['multi-label options', submitted({ topics: ['tech', 'zzz', 'aaa'] }), "['aaa', 'zzz'] are not valid labels for multi label selection question.\nValid labels are: ['sports', 'politics', 'tech']"],
    ['rating string', submitted({ rating: '3' }), "'3' is not a valid rating for rating question.\nValid ratings are: [1, 2, 3, 4, 5]"],
    ['rating bool', submitted({ rating: true }), 'True is not a valid rating for rating question.\nValid ratings are: [1, 2, 3, 4, 5]'],
    ['rating option', submitted({ rating: 9 }), '9 is not a valid rating for rating question.\nValid ratings are: [1, 2, 3, 4, 5]'],
    ['ranking incomplete', submitted({ ranking: [{ value: 'a', rank: 1 }] }), 'ranking question expects a list containing 3 values, found a list of 1 values'],
    ['ranking null rank', submitted({ ranking: [{ value: 'a', rank: 1 }, { value: 'b', rank: 2 }, { value: 'c' }] }), '[None] are not valid ranks for ranking question.\nValid ranks are: [1, 2, 3]'],
    ['ranking values', { status: 'draft', values: { ranking: { value: [{ value: 'x', rank: 1 }] } } }, "['x'] are not valid values for ranking question.\nValid values are: ['a', 'b', 'c']"],
    ['ranking duplicates', { status: 'draft', values: { ranking: { value: [{ value: 'a' }, { value: 'a' }] } } }, 'ranking question expects a list of unique values, but duplicates were found'],
    ['span end before start', submitted({ entities: [{ label: 'PER', start: 3, end: 3 }] }), "span question response value 'end' must have a value greater than 'start'"],
    ['span label', submitted({ entities: [{ label: 'XXX', start: 0, end: 5 }] }), "undefined label 'XXX' for span question.\nValid labels are: ['PER', 'ORG', 'LOC']"],
    ['span overlap', submitted({ entities: [{ label: 'PER', start: 0, end: 5 }, { label: 'PER', start: 4, end: 9 }] }), 'overlapping values found between spans at index idx=0 and idx=1'],
  ];
  it.each(invalid)('refuses %s', async (_name, body, detail) => {
    const recordId = await newRecord();
    const res = await api.post(`/records/${recordId}/responses`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toEqual({ detail });
  });

  it('accepts draft/discarded without required values and stores ranking ranks as null', async () => {
    const recordId = await newRecord();
    const res = await api.post(`/records/${recordId}/responses`, { status: 'draft', values: { ranking: { value: [{ value: 'b' }, { value: 'a', rank: 2 }] } } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.values).toEqual({ ranking: { value: [{ value: 'b', rank: null }, { value: 'a', rank: 2 }] } });
    const other = await principals.annotatorMember.api.post(`/records/${recordId}/responses`, { status: 'discarded' });
    expect(other.status).toBe(201);
    expect(other.body.values).toBeNull();
  });

  it('measures spans in code points (emoji text)', async () => {
    // "😀 Bob" is 5 code points but 6 UTF-16 units.
    const recordId = await newRecord(dataset, '😀 Bob');
    const ok = await api.post(`/records/${recordId}/responses`, submitted({ entities: [{ label: 'PER', start: 2, end: 5 }] }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const tooFar = await principals.annotatorMember.api.post(`/records/${recordId}/responses`, submitted({ entities: [{ label: 'PER', start: 2, end: 6 }] }));
    expect(tooFar.status).toBe(422);
    expect(tooFar.body).toEqual({
      detail: 'span question response value `end` must have a value lower or equal than record field `text` length that is `5`',
    });
    const start = await principals.annotatorMember.api.post(`/records/${recordId}/responses`, submitted({ entities: [{ label: 'PER', start: 5, end: 6 }] }));
    expect(start.body).toEqual({
      detail: 'span question response value `start` must have a value lower than record field `text` length that is `5`',
    });
  });

  it('computes record status with min_submitted=2 across two users', async () => {
    const ds = await newDataset(2);
    const recordId = await newRecord(ds);
    const status = async () =>
      (await server.app.database.db.selectFrom('records').select('status').where('id', '=', recordId).executeTakeFirstOrThrow()).status;
    await principals.annotatorMember.api.post(`/records/${recordId}/responses`, submitted());
    expect(await status()).toBe('pending');
    const draft = await annotator2.api.post(`/records/${recordId}/responses`, { status: 'draft', values: {} });
    expect(await status()).toBe('pending');
    const put = await annotator2.api.put(`/responses/${draft.body.id}`, submitted());
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(await status()).toBe('completed');
    await annotator2.api.delete(`/responses/${draft.body.id}`);
    expect(await status()).toBe('pending');
    const users = await server.app.database.db.selectFrom('dataset_users').select('user_id').where('dataset_id', '=', ds.id).orderBy('inserted_at').execute();
    expect(users.map((u) => u.user_id)).toEqual([principals.annotatorMember.id, annotator2.id]);
  });

  it.each(PRINCIPALS)('authorization: %s', async (name) => {
    const recordId = await newRecord();
    const res = await clientOf(principals, name).post(`/records/${recordId}/responses`, submitted());
    const expected: Record<PrincipalName, number> = {
      owner: 201, adminMember: 201, adminOutsider: 403, annotatorMember: 201, annotatorOutsider: 403, anonymous: 401,
    };
    expect(res.status).toBe(expected[name]);
    if (res.status === 403) expect(res.body).toEqual(FORBIDDEN);
    if (res.status === 401) expect(res.body).toEqual(UNAUTHORIZED);
  });
});

describe('dataset activity', () => {
  it('is bumped after a response is saved or deleted, and never moves backwards', async () => {
    const recordId = await newRecord();
    const before = await datasetRow(dataset.id);
    const created = await principals.annotatorMember.api.post(`/records/${recordId}/responses`, submitted({}));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const afterCreate = await datasetRow(dataset.id);
    expect(afterCreate.last_activity_at > before.last_activity_at).toBe(true);
    const deleted = await principals.annotatorMember.api.delete(`/responses/${created.body.id}`);
    expect(deleted.status).toBe(200);
    expect((await datasetRow(dataset.id)).last_activity_at > afterCreate.last_activity_at).toBe(true);

    // Activity another request recorded later than this one's own time is kept.
    const later = '2999-01-01T00:00:00.000000';
    await server.app.database.db.updateTable('datasets').set({ last_activity_at: later }).where('id', '=', dataset.id).execute();
    const again = await principals.annotatorMember.api.post(`/records/${recordId}/responses`, submitted({}));
    expect(again.status).toBe(201);
    expect((await datasetRow(dataset.id)).last_activity_at).toBe(later);
    await server.app.database.db.updateTable('datasets').set({ last_activity_at: afterCreate.last_activity_at }).where('id', '=', dataset.id).execute();
  });
});

describe('dataset users', () => {
  it('a user is added at their first response to the dataset, once, whoever responds after', async () => {
    const usersOf = async () =>
      (await server.app.database.db.selectFrom('dataset_users').select('user_id').where('dataset_id', '=', dataset.id).orderBy('inserted_at').execute()).map((u) => u.user_id);
    const ownerId = (await principals.owner.get('/me')).body.id as string;
    const respond = async (api: TestApi) => expect((await api.post(`/records/${await newRecord()}/responses`, submitted({}))).status).toBe(201);
    await respond(principals.adminMember.api);
    const before = await usersOf();
    expect(before).toContain(principals.adminMember.id);
    for (const api of [principals.annotatorMember.api, principals.adminMember.api, principals.owner, principals.adminMember.api]) await respond(api);
    const after = await usersOf();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(new Set(after).size).toBe(after.length);
    expect(after).toContain(ownerId);
  });
});

describe('PUT /responses/{id}', () => {
  it('replaces values (never merges)', async () => {
    const recordId = await newRecord();
    const created = await principals.annotatorMember.api.post(`/records/${recordId}/responses`, submitted({ comment: 'first' }));
    const res = await principals.annotatorMember.api.put(`/responses/${created.body.id}`, { status: 'draft', values: { rating: { value: 2 } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: created.body.id, status: 'draft', values: { rating: { value: 2 } }, inserted_at: created.body.inserted_at });
    const cleared = await principals.annotatorMember.api.put(`/responses/${created.body.id}`, { status: 'discarded' });
    expect(cleared.body.values).toBeNull();
  });

  it('requires values for submitted and checks them', async () => {
    const recordId = await newRecord();
    const created = await api.post(`/records/${recordId}/responses`, { status: 'draft', values: {} });
    const missing = await api.put(`/responses/${created.body.id}`, { status: 'submitted' });
    expect(missing.status).toBe(422);
    expect(missing.body.detail.params.errors[0]).toMatchObject({ type: 'missing', loc: ['body', 'submitted', 'values'] });
    const bad = await api.put(`/responses/${created.body.id}`, submitted({ label: 'x' }));
    expect(bad.body).toEqual({ detail: "'x' is not a valid label for label selection question.\nValid labels are: ['positive', 'negative', 'neutral']" });
  });

  it('404s an unknown response', async () => {
    const id = randomUUID();
    const res = await api.put(`/responses/${id}`, submitted());
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Response with id \`${id}\` not found` });
  });

  // The author is annotator2 (a member); others act on their response.
  const expected: Record<PrincipalName, number> = {
    owner: 200, adminMember: 200, adminOutsider: 403, annotatorMember: 403, annotatorOutsider: 403, anonymous: 401,
  };
  it.each(PRINCIPALS)('authorization for PUT and DELETE: %s', async (name) => {
    const recordId = await newRecord();
    const created = await annotator2.api.post(`/records/${recordId}/responses`, submitted());
    const put = await clientOf(principals, name).put(`/responses/${created.body.id}`, { status: 'draft', values: {} });
    expect(put.status).toBe(expected[name]);
    const del = await clientOf(principals, name).delete(`/responses/${created.body.id}`);
    expect(del.status).toBe(expected[name]);
  });

  it('lets the author update and delete their own response', async () => {
    const recordId = await newRecord();
    const created = await annotator2.api.post(`/records/${recordId}/responses`, submitted());
    expect((await annotator2.api.put(`/responses/${created.body.id}`, { status: 'discarded' })).status).toBe(200);
    const del = await annotator2.api.delete(`/responses/${created.body.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: created.body.id, status: 'discarded', values: null });
    expect((await annotator2.api.delete(`/responses/${created.body.id}`)).status).toBe(404);
  });
});

describe('questions hidden from annotators (Scholia extension)', () => {
  let hiddenDataset: SeededDataset;
  // The refusal reads as for a question that does not exist: it tells nothing of the hidden one.
  const HIDDEN = { detail: "found response value for non configured question with name='comment'" };

  beforeAll(async () => {
    hiddenDataset = await newDataset();
    const hide = await api.patch(`/questions/${hiddenDataset.questionIds.comment}`, { visible_for_annotators: false });
    expect(hide.status, JSON.stringify(hide.body)).toBe(200);
  });

  it('an annotator cannot submit, draft or discard with a value for a hidden question; nothing is stored', async () => {
    const recordId = await newRecord(hiddenDataset);
    const annotator = principals.annotatorMember.api;
    for (const body of [submitted({ comment: 'sneaky' }), { status: 'draft', values: { comment: { value: 'x' } } }, { status: 'discarded', values: { comment: { value: 'x' } } }]) {
      const res = await annotator.post(`/records/${recordId}/responses`, body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(HIDDEN);
    }
    const stored = await server.app.database.db.selectFrom('responses').select('id').where('record_id', '=', recordId).execute();
    expect(stored).toEqual([]);
    const unknown = await annotator.post(`/records/${recordId}/responses`, { status: 'draft', values: { no_such_question: { value: 'x' } } });
    expect(unknown.body).toEqual({ detail: "found response value for non configured question with name='no_such_question'" });
    // The visible questions alone are fine.
    expect((await annotator.post(`/records/${recordId}/responses`, submitted({ rating: 3 }))).status).toBe(201);
  });

  it('an annotator cannot put a hidden question into their response, nor upsert one in bulk', async () => {
    const [recordId, other] = [await newRecord(hiddenDataset), await newRecord(hiddenDataset)];
    const annotator = principals.annotatorMember.api;
    const created = await annotator.post(`/records/${recordId}/responses`, { status: 'draft', values: {} });
    const put = await annotator.put(`/responses/${created.body.id}`, submitted({ comment: 'sneaky' }));
    expect(put.status).toBe(422);
    expect(put.body).toEqual(HIDDEN);
    const bulk = await annotator.post('/me/responses/bulk', {
      items: [{ record_id: recordId, ...submitted({ comment: 'x' }) }, { record_id: other, status: 'draft', values: { comment: { value: 'x' } } }],
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.items).toEqual([{ item: null, error: HIDDEN }, { item: null, error: HIDDEN }]);
    const rows = await server.app.database.db.selectFrom('responses').select(['status', 'values']).where('record_id', 'in', [recordId, other]).execute();
    expect(rows).toEqual([{ status: 'draft', values: expect.not.stringContaining('comment') }]);
  });

  it('an annotator deleting their own response does not get back an admin’s answer to a hidden question', async () => {
    const recordId = await newRecord(hiddenDataset);
    const created = await principals.annotatorMember.api.post(`/records/${recordId}/responses`, submitted());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const fixed = await principals.adminMember.api.put(`/responses/${created.body.id}`, submitted({ comment: 'added by an admin' }));
    expect(fixed.body.values.comment).toEqual({ value: 'added by an admin' });
    const deleted = await principals.annotatorMember.api.delete(`/responses/${created.body.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ...fixed.body, values: { label: { value: 'positive' } } });
    // an admin deleting it gets every value back
    const other = await newRecord(hiddenDataset);
    const byAnnotator = await principals.annotatorMember.api.post(`/records/${other}/responses`, submitted());
    await principals.adminMember.api.put(`/responses/${byAnnotator.body.id}`, submitted({ comment: 'kept' }));
    const byAdmin = await principals.adminMember.api.delete(`/responses/${byAnnotator.body.id}`);
    expect(byAdmin.body.values).toEqual({ label: { value: 'positive' }, comment: { value: 'kept' } });
  });

  it('owners and admins may answer a hidden question, and may update an annotator response with it', async () => {
    const recordId = await newRecord(hiddenDataset);
    const owner = await api.post(`/records/${recordId}/responses`, submitted({ comment: 'by the owner' }));
    expect(owner.status, JSON.stringify(owner.body)).toBe(201);
    const admin = await principals.adminMember.api.post(`/records/${recordId}/responses`, { status: 'draft', values: { comment: { value: 'admin' } } });
    expect(admin.status, JSON.stringify(admin.body)).toBe(201);
    const bulk = await principals.adminMember.api.post('/me/responses/bulk', { items: [{ record_id: recordId, ...submitted({ comment: 'again' }) }] });
    expect(bulk.body.items[0]).toEqual({ item: expect.objectContaining({ status: 'submitted', values: expect.objectContaining({ comment: { value: 'again' } }) }), error: null });
    const byAnnotator = await principals.annotatorMember.api.post(`/records/${recordId}/responses`, submitted());
    const fixed = await principals.adminMember.api.put(`/responses/${byAnnotator.body.id}`, submitted({ comment: 'added by an admin' }));
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.values.comment).toEqual({ value: 'added by an admin' });
  });

  it('an annotator updating their response keeps an admin’s answer to a hidden question (they never saw it)', async () => {
    const [recordId, other] = [await newRecord(hiddenDataset), await newRecord(hiddenDataset)];
    const annotator = principals.annotatorMember.api;
    const created = await annotator.post(`/records/${recordId}/responses`, submitted());
    await principals.adminMember.api.put(`/responses/${created.body.id}`, submitted({ comment: 'added by an admin' }));
    const changed = await annotator.put(`/responses/${created.body.id}`, { status: 'draft', values: { label: { value: 'negative' } } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.values).toEqual({ label: { value: 'negative' } });
    const discarded = await annotator.put(`/responses/${created.body.id}`, { status: 'discarded' });
    expect(discarded.body).toMatchObject({ status: 'discarded', values: {} });
    // The bulk upsert path too.
    const second = await annotator.post(`/records/${other}/responses`, submitted());
    await principals.adminMember.api.put(`/responses/${second.body.id}`, submitted({ comment: 'also kept' }));
    const bulk = await annotator.post('/me/responses/bulk', { items: [{ record_id: other, status: 'draft', values: { label: { value: 'negative' } } }] });
    expect(bulk.body.items[0]).toMatchObject({ item: { values: { label: { value: 'negative' } } }, error: null });
    expect(bulk.body.items[0].item.values.comment).toBeUndefined();

    const stored = await server.app.database.db.selectFrom('responses').select(['record_id', 'status', 'values']).where('record_id', 'in', [recordId, other]).execute();
    const valuesOf = (id: string) => fromJson(stored.find((row) => row.record_id === id)!.values);
    expect(valuesOf(recordId)).toEqual({ comment: { value: 'added by an admin' } });
    expect(valuesOf(other)).toEqual({ label: { value: 'negative' }, comment: { value: 'also kept' } });
    // The admin sees both.
    expect((await principals.adminMember.api.get(`/records/${other}?include=responses`)).body.responses[0].values).toEqual({ label: { value: 'negative' }, comment: { value: 'also kept' } });
  });
});

describe('POST /me/responses/bulk', () => {
  it('upserts per record and reports per-item errors without failing the request', async () => {
    const [r1, r2] = [await newRecord(), await newRecord()];
    const other = await seedDataset(server.app.database.db, server.app.database.dialect, { workspaceId: (await api.post('/workspaces', { name: `ws-${randomUUID().slice(0, 8)}` })).body.id });
    const foreign = await newRecord(other);
    const missing = randomUUID();
    const existing = await principals.annotatorMember.api.post(`/records/${r2}/responses`, { status: 'draft', values: {} });
    const res = await principals.annotatorMember.api.post('/me/responses/bulk', {
      items: [
        { record_id: r1, ...submitted() },
        { record_id: r2, status: 'discarded', values: null },
        { record_id: missing, ...submitted() },
        { record_id: foreign, ...submitted() },
        { record_id: r1, status: 'submitted', values: { label: { value: 'bad' } } },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [a, b, c, d, e] = res.body.items;
    expect(a).toEqual({ item: expect.objectContaining({ record_id: r1, status: 'submitted', user_id: principals.annotatorMember.id }), error: null });
    expect(b).toEqual({ item: expect.objectContaining({ id: existing.body.id, status: 'discarded', values: null }), error: null });
    expect(c).toEqual({ item: null, error: { detail: `Record with id \`${missing}\` not found` } });
    expect(d).toEqual({ item: null, error: { detail: 'Operation not allowed' } });
    expect(e).toEqual({ item: null, error: { detail: "'bad' is not a valid label for label selection question.\nValid labels are: ['positive', 'negative', 'neutral']" } });
  });

  it('validates the envelope (1..100 items)', async () => {
    const res = await api.post('/me/responses/bulk', { items: [] });
    expect(res.status).toBe(422);
    expect(res.body.detail.params.errors[0]).toMatchObject({ type: 'too_short', loc: ['body', 'items'] });
  });

  it('requires authentication', async () => {
    const res = await principals.anonymous.post('/me/responses/bulk', { items: [] });
    expect(res.status).toBe(401);
  });
});
