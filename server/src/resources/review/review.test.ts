import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { seedDataset, type SeededDataset } from '../../../test/dataset-fixtures.js';
import { addMember, createPrincipals, createUser, FORBIDDEN, type Principals, type TestUser } from '../../../test/fixtures.js';
import { startTestServer, OWNER, type TestServer } from '../../../test/test-server.js';

let server: TestServer;
let api: TestApi;
let principals: Principals;
let annotator2: TestUser;

const answer = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }]));
const submitted = (values: Record<string, unknown>) => ({ status: 'submitted', values: answer(values) });
const statusFilter = (...values: string[]) => ({ filters: { and: [{ type: 'terms', scope: { entity: 'record', property: 'status' }, values }] } });

async function newDataset(minSubmitted = 1): Promise<SeededDataset> {
  return seedDataset(server.app.database.db, server.app.database.dialect, { workspaceId: principals.workspace.id, minSubmitted });
}

async function newRecords(dataset: SeededDataset, count: number): Promise<string[]> {
  const items = Array.from({ length: count }, (_, i) => ({ fields: { text: `Alice met Bob in Paris ${i}` } }));
  const res = await api.put(`/datasets/${dataset.id}/records/bulk`, { items });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items.map((item: { id: string }) => item.id);
}

async function respond(user: TestUser, recordId: string, values: Record<string, unknown>) {
  const res = await user.api.post(`/records/${recordId}/responses`, submitted(values));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url).as({ apiKey: OWNER.apiKey });
  principals = await createPrincipals(api);
  annotator2 = await createUser(api, { role: 'annotator' });
  await addMember(api, principals.workspace.id, annotator2.id);
});
afterAll(() => server.close());

describe('PUT /records/{id}/validation', () => {
  it('stores the final answer; owners and admins read it on the record and in search, annotators never', async () => {
    const dataset = await newDataset();
    const [recordId] = await newRecords(dataset, 1);
    await respond(principals.annotatorMember, recordId, { label: 'negative' });

    const res = await principals.adminMember.api.put(`/records/${recordId}/validation`, { values: answer({ label: 'positive', rating: 4 }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      status: 'validated',
      values: answer({ label: 'positive', rating: 4 }),
      validated_by: principals.adminMember.id,
      stale: false,
      inserted_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const asOwner = await api.get(`/records/${recordId}`);
    expect(asOwner.body.status).toBe('completed');
    expect(asOwner.body.validation).toEqual(res.body);
    const asAnnotator = await principals.annotatorMember.api.get(`/records/${recordId}`);
    expect(asAnnotator.status).toBe(200);
    expect(asAnnotator.body).not.toHaveProperty('validation');

    const adminSearch = await api.post(`/datasets/${dataset.id}/records/search`, {});
    expect(adminSearch.body.items[0].record.validation.values).toEqual(answer({ label: 'positive', rating: 4 }));
    const meSearch = await principals.annotatorMember.api.post(`/me/datasets/${dataset.id}/records/search`, {});
    expect(meSearch.body.items[0].record).not.toHaveProperty('validation');
    const list = await api.get(`/datasets/${dataset.id}/records`);
    expect(list.body.items[0].validation.status).toBe('validated');
  });

  it('replaces an earlier final answer', async () => {
    const dataset = await newDataset();
    const [recordId] = await newRecords(dataset, 1);
    await api.put(`/records/${recordId}/validation`, { values: answer({ label: 'positive' }) });
    const res = await api.put(`/records/${recordId}/validation`, { values: answer({ label: 'neutral', topics: ['tech'] }) });
    expect(res.status).toBe(200);
    expect((await api.get(`/records/${recordId}`)).body.validation.values).toEqual(answer({ label: 'neutral', topics: ['tech'] }));
  });

  it('checks the values as a submitted response', async () => {
    const dataset = await newDataset();
    const [recordId] = await newRecords(dataset, 1);
    const bad = await api.put(`/records/${recordId}/validation`, { values: answer({ label: 'bogus' }) });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain("'bogus' is not a valid label for label selection question");
    const missing = await api.put(`/records/${recordId}/validation`, { values: answer({ rating: 3 }) });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ detail: "missing response value for required question with name='label'" });
    const unknown = await api.put(`/records/${recordId}/validation`, { values: answer({ label: 'positive', nope: 1 }) });
    expect(unknown.status).toBe(422);
    const noBody = await api.put(`/records/${recordId}/validation`, {});
    expect(noBody.status).toBe(422);
    expect((await api.get(`/records/${recordId}`)).body).not.toHaveProperty('validation');
  });

  it('is for owners and admin members only', async () => {
    const dataset = await newDataset();
    const [recordId] = await newRecords(dataset, 1);
    const body = { values: answer({ label: 'positive' }) };
    expect(await principals.annotatorMember.api.put(`/records/${recordId}/validation`, body)).toMatchObject({ status: 403, body: FORBIDDEN });
    expect((await principals.adminOutsider.api.put(`/records/${recordId}/validation`, body)).status).toBe(403);
    expect((await api.put('/records/00000000-0000-4000-8000-000000000000/validation', body)).status).toBe(404);
  });
});

describe('a response changed after validation', () => {
  it('keeps the final answer, marks it stale until the record is validated again', async () => {
    const dataset = await newDataset();
    const [recordId] = await newRecords(dataset, 1);
    const first = await principals.annotatorMember.api.post(`/records/${recordId}/responses`, submitted({ label: 'negative' }));
    await api.put(`/records/${recordId}/validation`, { values: answer({ label: 'negative' }) });
    expect((await api.get(`/records/${recordId}`)).body.validation.stale).toBe(false);

    const changedAnswer = await principals.annotatorMember.api.put(`/responses/${first.body.id}`, submitted({ label: 'positive' }));
    expect(changedAnswer.status).toBe(200);
    const changed = (await api.get(`/records/${recordId}`)).body.validation;
    expect(changed).toMatchObject({ stale: true, values: answer({ label: 'negative' }) });
    const search = await api.post(`/datasets/${dataset.id}/records/search`, statusFilter('validated'));
    expect(search.body.items.map((item: { record: { id: string; validation: { stale: boolean } } }) => [item.record.id, item.record.validation.stale])).toEqual([[recordId, true]]);

    await respond(annotator2, recordId, { label: 'positive' });
    expect((await api.get(`/records/${recordId}`)).body.validation.stale).toBe(true);
    await api.put(`/records/${recordId}/validation`, { values: answer({ label: 'positive' }) });
    expect((await api.get(`/records/${recordId}`)).body.validation).toMatchObject({ stale: false, values: answer({ label: 'positive' }) });
  });
});

describe('DELETE /records/{id}/validation', () => {
  it('reopens the record; a second reopen is a 404', async () => {
    const dataset = await newDataset();
    const [recordId] = await newRecords(dataset, 1);
    await api.put(`/records/${recordId}/validation`, { values: answer({ label: 'positive' }) });
    expect((await principals.annotatorMember.api.delete(`/records/${recordId}/validation`)).status).toBe(403);
    const res = await principals.adminMember.api.delete(`/records/${recordId}/validation`);
    expect(res.status).toBe(200);
    expect(res.body.values).toEqual(answer({ label: 'positive' }));
    expect((await api.get(`/records/${recordId}`)).body).not.toHaveProperty('validation');
    const again = await api.delete(`/records/${recordId}/validation`);
    expect(again).toMatchObject({ status: 404, body: { detail: `Record with id \`${recordId}\` is not validated` } });
  });
});

describe('record status filter `validated`', () => {
  it('matches validated records for owners and admins, nothing for annotators', async () => {
    const dataset = await newDataset();
    const [validated, open] = await newRecords(dataset, 2);
    await api.put(`/records/${validated}/validation`, { values: answer({ label: 'positive' }) });
    const ids = (res: { body: { items: { record: { id: string } }[] } }) => res.body.items.map((item) => item.record.id);

    expect(ids(await api.post(`/datasets/${dataset.id}/records/search`, statusFilter('validated')))).toEqual([validated]);
    expect(ids(await principals.adminMember.api.post(`/me/datasets/${dataset.id}/records/search`, statusFilter('validated')))).toEqual([validated]);
    expect((await api.post(`/datasets/${dataset.id}/records/search`, statusFilter('validated', 'pending'))).body.total).toBe(2);
    expect(ids(await api.post(`/datasets/${dataset.id}/records/search`, statusFilter('pending')))).toEqual([validated, open]);
    const annotatorView = await principals.annotatorMember.api.post(`/me/datasets/${dataset.id}/records/search`, statusFilter('validated'));
    expect(annotatorView.status).toBe(200);
    expect(annotatorView.body).toEqual({ items: [], total: 0 });
  });
});

describe('POST /datasets/{id}/records/validation/bulk', () => {
  it('validates the completed records whose submitted answers agree', async () => {
    const dataset = await newDataset(2);
    const [agreeing, disagreeing, incomplete, textsDiffer, alreadyValidated] = await newRecords(dataset, 5);
    await respond(principals.annotatorMember, agreeing, { label: 'positive', topics: ['tech', 'sports'], comment: 'good' });
    await respond(annotator2, agreeing, { label: 'positive', topics: ['sports', 'tech'], comment: 'fine' });
    await respond(principals.annotatorMember, disagreeing, { label: 'positive' });
    await respond(annotator2, disagreeing, { label: 'negative' });
    await respond(principals.annotatorMember, incomplete, { label: 'positive' });
    await respond(principals.annotatorMember, textsDiffer, { label: 'neutral', rating: 2, comment: 'a' });
    await respond(annotator2, textsDiffer, { label: 'neutral', rating: 2 });
    await respond(principals.annotatorMember, alreadyValidated, { label: 'positive' });
    await respond(annotator2, alreadyValidated, { label: 'positive' });
    await api.put(`/records/${alreadyValidated}/validation`, { values: answer({ label: 'negative' }) });

    expect((await principals.annotatorMember.api.post(`/datasets/${dataset.id}/records/validation/bulk`, {})).status).toBe(403);
    const res = await principals.adminMember.api.post(`/datasets/${dataset.id}/records/validation/bulk`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ validated: 2, disagreeing: 1 });

    const validationOf = async (id: string) => (await api.get(`/records/${id}`)).body.validation;
    expect((await validationOf(agreeing)).values).toEqual(answer({ label: 'positive', topics: ['tech', 'sports'] }));
    expect((await validationOf(agreeing)).validated_by).toBe(principals.adminMember.id);
    expect((await validationOf(textsDiffer)).values).toEqual(answer({ label: 'neutral', rating: 2 }));
    expect(await validationOf(disagreeing)).toBeUndefined();
    expect(await validationOf(incomplete)).toBeUndefined();
    expect((await validationOf(alreadyValidated)).values).toEqual(answer({ label: 'negative' }));

    expect((await api.post(`/datasets/${dataset.id}/records/validation/bulk`, {})).body).toEqual({ validated: 0, disagreeing: 1 });
  });

  it('considers only the given records', async () => {
    const dataset = await newDataset();
    const [first, second] = await newRecords(dataset, 2);
    await respond(principals.annotatorMember, first, { label: 'positive' });
    await respond(principals.annotatorMember, second, { label: 'positive' });
    const res = await api.post(`/datasets/${dataset.id}/records/validation/bulk`, { record_ids: [second] });
    expect(res.body).toEqual({ validated: 1, disagreeing: 0 });
    expect((await api.get(`/records/${first}`)).body).not.toHaveProperty('validation');
    expect((await api.post(`/datasets/${dataset.id}/records/validation/bulk`, { record_ids: ['not-an-id'] })).status).toBe(422);
  });
});
