import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { seedDataset, type SeededDataset } from '../../../test/dataset-fixtures.js';
import { createPrincipals, FORBIDDEN, type Principals } from '../../../test/fixtures.js';
import { clientOf, PRINCIPALS, READ_MATRIX, WRITE_MATRIX } from '../../../test/policy-matrix.js';
import { startTestServer, OWNER, type TestServer } from '../../../test/test-server.js';

let server: TestServer;
let api: TestApi;
let principals: Principals;
let dataset: SeededDataset;

async function newRecord(): Promise<string> {
  const res = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ fields: { text: 'Alice met Bob' } }] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items[0].id;
}

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url).as({ apiKey: OWNER.apiKey });
  principals = await createPrincipals(api);
  dataset = await seedDataset(server.app.database.db, server.app.database.dialect, { workspaceId: principals.workspace.id });
});
afterAll(() => server.close());

describe('PUT /records/{id}/suggestions', () => {
  it('creates (201) then replaces (200) the suggestion of a question, keeping its id', async () => {
    const recordId = await newRecord();
    const body = { question_id: dataset.questionIds.topics, value: ['tech', 'sports'], score: [0.9, 0.4], agent: 'gpt-4o', type: 'model' };
    const created = await api.put(`/records/${recordId}/suggestions`, body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      question_id: dataset.questionIds.topics,
      type: 'model',
      value: ['tech', 'sports'],
      agent: 'gpt-4o',
      score: [0.9, 0.4],
      inserted_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const replaced = await api.put(`/records/${recordId}/suggestions`, { question_id: dataset.questionIds.topics, value: ['politics'] });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: created.body.id, value: ['politics'], score: null, agent: null, type: null });
    const list = await api.get(`/records/${recordId}/suggestions`);
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ id: created.body.id, value: ['politics'] });
  });

  it('answers the contract errors', async () => {
    const recordId = await newRecord();
    const q = randomUUID();
    const unknown = await api.put(`/records/${recordId}/suggestions`, { question_id: q, value: 'x' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ detail: `Question with id \`${q}\` not found` });
    const cases: [Record<string, unknown>, string][] = [
      [{ question_id: dataset.questionIds.label, value: 'positive', score: [0.1] }, 'a list of score values is not allowed for a suggestion with a single value'],
      [{ question_id: dataset.questionIds.topics, value: ['tech'], score: 0.1 }, 'a single score value is not allowed for a suggestion with a multiple items value'],
      [{ question_id: dataset.questionIds.topics, value: ['tech', 'sports'], score: [0.1] }, "number of items on value and score attributes doesn't match"],
      [{ question_id: dataset.questionIds.label, value: 'nope' }, "'nope' is not a valid label for label selection question.\nValid labels are: ['positive', 'negative', 'neutral']"],
    ];
    for (const [body, detail] of cases) {
      const res = await api.put(`/records/${recordId}/suggestions`, body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ detail });
    }
    const badScore = await api.put(`/records/${recordId}/suggestions`, { question_id: dataset.questionIds.label, value: 'positive', score: 2 });
    expect(badScore.status).toBe(422);
    expect(badScore.body.detail.code).toBe('argilla.api.errors::ValidationError');
    const badAgent = await api.put(`/records/${recordId}/suggestions`, { question_id: dataset.questionIds.label, value: 'positive', agent: '!!!' });
    expect(badAgent.body.detail.params.errors[0]).toMatchObject({ type: 'string_pattern_mismatch', loc: ['body', 'agent'] });
    const missing = randomUUID();
    const nf = await api.put(`/records/${missing}/suggestions`, { question_id: dataset.questionIds.label, value: 'positive' });
    expect(nf.status).toBe(404);
    expect(nf.body).toEqual({ detail: `Record with id \`${missing}\` not found` });
  });

  it('does not check ranking completeness for suggestions', async () => {
    const recordId = await newRecord();
    const res = await api.put(`/records/${recordId}/suggestions`, { question_id: dataset.questionIds.ranking, value: [{ value: 'b', rank: 1 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.value).toEqual([{ value: 'b', rank: 1 }]);
  });

  it.each(PRINCIPALS)('authorization (PUT admin member, GET member): %s', async (name) => {
    const recordId = await newRecord();
    const put = await clientOf(principals, name).put(`/records/${recordId}/suggestions`, { question_id: dataset.questionIds.label, value: 'neutral' });
    expect(put.status).toBe(WRITE_MATRIX(201)[name]);
    if (put.status === 403) expect(put.body).toEqual(FORBIDDEN);
    const get = await clientOf(principals, name).get(`/records/${recordId}/suggestions`);
    expect(get.status).toBe(READ_MATRIX[name]);
  });
});

describe('DELETE suggestions', () => {
  it('deletes suggestions of a record by ids (204) and one by id (200)', async () => {
    const recordId = await newRecord();
    const a = await api.put(`/records/${recordId}/suggestions`, { question_id: dataset.questionIds.label, value: 'positive' });
    const b = await api.put(`/records/${recordId}/suggestions`, { question_id: dataset.questionIds.comment, value: 'hi' });
    const c = await api.put(`/records/${recordId}/suggestions`, { question_id: dataset.questionIds.rating, value: 3 });
    const res = await api.delete(`/records/${recordId}/suggestions?ids=${a.body.id},${b.body.id},${randomUUID()}`);
    expect(res.status).toBe(204);
    expect((await api.get(`/records/${recordId}/suggestions`)).body.items.map((s: any) => s.id)).toEqual([c.body.id]);
    const one = await api.delete(`/suggestions/${c.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: c.body.id, value: 3, question_id: dataset.questionIds.rating });
    const again = await api.delete(`/suggestions/${c.body.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: `Suggestion with id \`${c.body.id}\` not found` });
  });

  it('answers the contract errors for ids', async () => {
    const recordId = await newRecord();
    expect((await api.delete(`/records/${recordId}/suggestions?ids=`)).body).toEqual({ detail: 'No suggestions IDs provided' });
    const ids = Array.from({ length: 101 }, () => randomUUID()).join(',');
    expect((await api.delete(`/records/${recordId}/suggestions?ids=${ids}`)).body).toEqual({ detail: 'Cannot delete more than 100 suggestions at once' });
    expect((await api.delete(`/records/${recordId}/suggestions?ids=x`)).body).toEqual({ detail: 'Invalid UUID format' });
  });

  it.each(PRINCIPALS)('authorization: %s', async (name) => {
    const recordId = await newRecord();
    const s = await api.put(`/records/${recordId}/suggestions`, { question_id: dataset.questionIds.label, value: 'positive' });
    const many = await clientOf(principals, name).delete(`/records/${recordId}/suggestions?ids=${randomUUID()}`);
    expect(many.status).toBe(WRITE_MATRIX(204)[name]);
    const one = await clientOf(principals, name).delete(`/suggestions/${s.body.id}`);
    expect(one.status).toBe(WRITE_MATRIX(200)[name]);
  });
});

describe('GET /records/{id}/suggestions with a question hidden from annotators (Scholia extension)', () => {
  it('annotators do not get the hidden question’s suggestion; owners and admins get all', async () => {
    const recordId = await newRecord();
    const q = dataset.questionIds;
    for (const body of [{ question_id: q.label, value: 'positive' }, { question_id: q.topics, value: ['tech'], agent: 'secret-agent' }]) {
      expect((await api.put(`/records/${recordId}/suggestions`, body)).status).toBe(201);
    }
    const questions = (items: { question_id: string }[]) => items.map((s) => s.question_id).sort();
    const path = `/records/${recordId}/suggestions`;
    expect((await api.patch(`/questions/${q.topics}`, { visible_for_annotators: false })).status).toBe(200);
    try {
      const annotator = await principals.annotatorMember.api.get(path);
      expect(annotator.status).toBe(200);
      expect(annotator.body.items.map((s: { question_id: string }) => s.question_id)).toEqual([q.label]);
      for (const client of [api, principals.adminMember.api]) {
        expect(questions((await client.get(path)).body.items)).toEqual([q.label, q.topics].sort());
      }
    } finally {
      expect((await api.patch(`/questions/${q.topics}`, { visible_for_annotators: true })).status).toBe(200);
    }
    // shown again: the annotator gets it again
    expect(questions((await principals.annotatorMember.api.get(path)).body.items)).toEqual([q.label, q.topics].sort());
  });
});
