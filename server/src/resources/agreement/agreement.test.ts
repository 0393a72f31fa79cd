import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { seedDataset, type SeededDataset } from '../../../test/dataset-fixtures.js';
import { addMember, createPrincipals, createUser, FORBIDDEN, uniqueName, type Principals, type TestUser } from '../../../test/fixtures.js';
import { startTestServer, OWNER, type TestServer } from '../../../test/test-server.js';
import { answerReadCount, submittedAnswers } from './answer-cache.js';

let server: TestServer;
let api: TestApi;
let principals: Principals;
let second: TestUser;
let dataset: SeededDataset;

const values = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).map(([k, value]) => [k, { value }]));
const submitted = (userId: string, v: Record<string, unknown>) => ({ user_id: userId, status: 'submitted', values: values(v) });
const agreementOf = (query = '') => api.get(`/datasets/${dataset.id}/agreement${query}`);
const filtersQuery = (filters: unknown) => `?filters=${encodeURIComponent(JSON.stringify(filters))}`;

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url).as({ apiKey: OWNER.apiKey });
  principals = await createPrincipals(api);
  second = await createUser(api, { role: 'annotator' });
  await addMember(api, principals.workspace.id, second.id);
  dataset = await seedDataset(server.app.database.db, server.app.database.dialect, {
    workspaceId: principals.workspace.id,
    minSubmitted: 2,
    metadata: [{ name: 'split', settings: { type: 'terms', values: ['train', 'test'] } }],
  });
  const first = principals.annotatorMember.id;
  // Logged as the SDK logs records with their responses: label pos/pos, pos/neg, neg/neg; ratings 1/2 and 3/3.
  const items = [
    { fields: { text: 'one' }, metadata: { split: 'train' }, responses: [submitted(first, { label: 'positive', rating: 1 }), submitted(second.id, { label: 'positive', rating: 2 })] },
    { fields: { text: 'two' }, metadata: { split: 'train' }, responses: [submitted(first, { label: 'positive', rating: 3 }), submitted(second.id, { label: 'negative', rating: 3 })] },
    { fields: { text: 'three' }, metadata: { split: 'test' }, responses: [submitted(first, { label: 'negative', comment: 'a' }), submitted(second.id, { label: 'negative', comment: 'b' })] },
    { fields: { text: 'four' }, metadata: { split: 'test' }, responses: [submitted(first, { label: 'positive' })] },
    { fields: { text: 'five' }, metadata: { split: 'test' }, responses: [{ user_id: second.id, status: 'draft', values: values({ label: 'neutral' }) }] },
  ];
  const res = await api.put(`/datasets/${dataset.id}/records/bulk`, { items });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
});
afterAll(() => server.close());

describe('GET /datasets/{id}/agreement', () => {
  it('gives the known figures of a dataset with known answers', async () => {
    const res = await principals.adminMember.api.get(`/datasets/${dataset.id}/agreement`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const byName = Object.fromEntries(res.body.questions.map((q: { question: { name: string } }) => [q.question.name, q]));
    expect(Object.keys(byName).sort()).toEqual(['entities', 'label', 'ranking', 'rating', 'topics']);
    expect(byName.label).toMatchObject({ metric: 'nominal', records: 3, question: { id: dataset.questionIds.label, type: 'label_selection' } });
    expect(byName.label.percent_agreement).toBeCloseTo(200 / 3, 10);
    // pairable values: positive ×3, negative ×3; one disagreeing pair: alpha = 1 - (2/6) / (2·3·3/30) = 4/9
    expect(byName.label.alpha).toBeCloseTo(4 / 9, 12);
    // ratings 1|2 and 3|3 on the interval metric: alpha = 8/11
    expect(byName.rating).toMatchObject({ metric: 'interval', records: 2, percent_agreement: 50 });
    expect(byName.rating.alpha).toBeCloseTo(8 / 11, 12);
    expect(byName.topics).toMatchObject({ records: 0, percent_agreement: null, alpha: null });
    const byUserId = <T extends { user_id: string }>(list: T[]) => [...list].sort((a, b) => a.user_id.localeCompare(b.user_id));
    expect(byUserId(byName.label.annotators)).toEqual(byUserId([
      { user_id: principals.annotatorMember.id, username: principals.annotatorMember.username, records: 3, percent_agreement: expect.closeTo(200 / 3, 10) },
      { user_id: second.id, username: second.username, records: 3, percent_agreement: expect.closeTo(200 / 3, 10) },
    ]));
    // label 2 of 3 pairs, rating 1 of 2 pairs
    expect(res.body.annotators.map((a: { records: number; percent_agreement: number }) => [a.records, a.percent_agreement])).toEqual([
      [5, 60],
      [5, 60],
    ]);
  });

  it('applies metadata and status filters as search does', async () => {
    const train = await agreementOf(filtersQuery({ and: [{ type: 'terms', scope: { entity: 'metadata', metadata_property: 'split' }, values: ['train'] }] }));
    expect(train.status, JSON.stringify(train.body)).toBe(200);
    const label = train.body.questions.find((q: { question: { name: string } }) => q.question.name === 'label');
    expect(label).toMatchObject({ records: 2, percent_agreement: 50 });

    const validatedOnly = filtersQuery({ and: [{ type: 'terms', scope: { entity: 'record', property: 'status' }, values: ['validated'] }] });
    expect((await agreementOf(validatedOnly)).body.questions[0]).toMatchObject({ records: 0, alpha: null });
    const records = (await api.post(`/datasets/${dataset.id}/records/search`, {})).body.items.map((i: { record: { id: string } }) => i.record.id);
    await api.put(`/records/${records[0]}/validation`, { values: values({ label: 'positive' }) });
    const afterValidation = (await agreementOf(validatedOnly)).body.questions.find((q: { question: { name: string } }) => q.question.name === 'label');
    expect(afterValidation).toMatchObject({ records: 1, percent_agreement: 100 });
  });

  it('reads answers to a question whose name holds a quote', async () => {
    const labels = ['x', 'y'].map((value) => ({ value, text: value, description: null }));
    const quoted = await seedDataset(server.app.database.db, server.app.database.dialect, {
      workspaceId: principals.workspace.id,
      questions: [{ name: 'say "which"', required: true, settings: { type: 'label_selection', options: labels, visible_options: 2 } }],
    });
    const answer = (userId: string, value: string) => ({ user_id: userId, status: 'submitted', values: { 'say "which"': { value } } });
    const items = [
      { fields: { text: 'a' }, responses: [answer(principals.annotatorMember.id, 'x'), answer(second.id, 'x')] },
      { fields: { text: 'b' }, responses: [answer(principals.annotatorMember.id, 'x'), answer(second.id, 'y')] },
    ];
    expect((await api.put(`/datasets/${quoted.id}/records/bulk`, { items })).status).toBe(200);
    const res = await api.get(`/datasets/${quoted.id}/agreement`);
    expect(res.body.questions[0]).toMatchObject({ question: { name: 'say "which"' }, records: 2, percent_agreement: 50 });
  });

  it('refuses bad filters with a 422 that says what is wrong', async () => {
    const notJson = await agreementOf('?filters=%7Bnope');
    expect(notJson.status).toBe(422);
    expect(JSON.stringify(notJson.body)).toContain('filters must be the JSON');
    expect((await agreementOf(filtersQuery({ and: [{ type: 'terms' }] }))).status).toBe(422);
    const unknown = await agreementOf(filtersQuery({ and: [{ type: 'terms', scope: { entity: 'metadata', metadata_property: 'nope' }, values: ['x'] }] }));
    expect(unknown.status).toBe(422);
  });

  it('is for owners and admin members only', async () => {
    expect(await principals.annotatorMember.api.get(`/datasets/${dataset.id}/agreement`)).toMatchObject({ status: 403, body: FORBIDDEN });
    expect((await principals.adminOutsider.api.get(`/datasets/${dataset.id}/agreement`)).status).toBe(403);
    expect((await api.get('/datasets/00000000-0000-4000-8000-000000000000/agreement')).status).toBe(404);
  });
});

/** Answers are kept in memory between requests: every change to them must show in the next figures. */
describe('GET /datasets/{id}/agreement after changes', () => {
  let changing: SeededDataset;
  let recordIds: string[];
  const labelOf = async () => {
    const res = await api.get(`/datasets/${changing.id}/agreement`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.questions.find((q: { question: { name: string } }) => q.question.name === 'label');
  };
  const responseOf = async (recordId: string, userId: string) => {
    const res = await api.get(`/datasets/${changing.id}/records?include=responses&limit=100`);
    const record = res.body.items.find((r: { id: string }) => r.id === recordId);
    return record.responses.find((r: { user_id: string }) => r.user_id === userId) as { id: string };
  };

  beforeAll(async () => {
    changing = await seedDataset(server.app.database.db, server.app.database.dialect, {
      workspaceId: principals.workspace.id,
      name: uniqueName('agreement-changes'),
      minSubmitted: 2,
    });
    const both = (label: string, topics: string[]) => [
      submitted(principals.annotatorMember.id, { label, topics }),
      submitted(second.id, { label, topics }),
    ];
    const items = [1, 2, 3, 4].map((n) => ({ fields: { text: `record ${n}` }, responses: both('positive', ['sports']) }));
    expect((await api.put(`/datasets/${changing.id}/records/bulk`, { items })).status).toBe(200);
    const listed = await api.get(`/datasets/${changing.id}/records?limit=100`);
    recordIds = listed.body.items.map((r: { id: string }) => r.id);
    expect(await labelOf()).toMatchObject({ records: 4, percent_agreement: 100 });
  });

  it('keeps the answers it read while nothing changes, and writes a response change into them', async () => {
    const db = server.app.database.db;
    const questions = [{ id: changing.questionIds.label, name: 'label', type: 'label_selection', options: ['positive', 'negative', 'neutral'] }];
    const first = (await submittedAnswers(db, changing.id, questions)).table;
    expect((await submittedAnswers(db, changing.id, questions)).table).toBe(first);
    const reads = answerReadCount();
    const response = await responseOf(recordIds[3], second.id);
    await second.api.put(`/responses/${response.id}`, { status: 'submitted', values: values({ label: 'neutral', topics: ['sports'] }) });
    const changed = (await submittedAnswers(db, changing.id, questions)).table;
    expect(changed).toBe(first);
    expect(answerReadCount()).toBe(reads);
    expect(changed.categories[0].representatives).toContain('neutral');
    await second.api.put(`/responses/${response.id}`, { status: 'submitted', values: values({ label: 'positive', topics: ['sports'] }) });
  });

  it('shows a changed response', async () => {
    const response = await responseOf(recordIds[0], second.id);
    const res = await second.api.put(`/responses/${response.id}`, { status: 'submitted', values: values({ label: 'negative', topics: ['sports'] }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await labelOf()).toMatchObject({ records: 4, percent_agreement: 75 });
  });

  it('shows a response turned into a draft, and a deleted response', async () => {
    const draft = await responseOf(recordIds[0], second.id);
    expect((await second.api.put(`/responses/${draft.id}`, { status: 'draft', values: values({ label: 'negative' }) })).status).toBe(200);
    expect(await labelOf()).toMatchObject({ records: 3, percent_agreement: 100 });
    const deleted = await responseOf(recordIds[1], second.id);
    expect((await second.api.delete(`/responses/${deleted.id}`)).status).toBe(200);
    expect(await labelOf()).toMatchObject({ records: 2, percent_agreement: 100 });
  });

  it('shows responses written with a bulk record write, and those of a deleted record', async () => {
    const answers = [submitted(principals.annotatorMember.id, { label: 'positive' }), submitted(second.id, { label: 'negative' })];
    expect((await api.put(`/datasets/${changing.id}/records/bulk`, { items: [{ id: recordIds[1], responses: answers }] })).status).toBe(200);
    expect(await labelOf()).toMatchObject({ records: 3, percent_agreement: expect.closeTo(200 / 3, 10) });
    expect((await api.delete(`/records/${recordIds[1]}`)).status).toBe(200);
    expect(await labelOf()).toMatchObject({ records: 2, percent_agreement: 100 });
  });

  it("shows the answers of a deleted user's responses gone", async () => {
    const third = await createUser(api, { role: 'annotator' });
    await addMember(api, principals.workspace.id, third.id);
    const answer = submitted(third.id, { label: 'negative', topics: ['tech'] });
    expect((await api.put(`/datasets/${changing.id}/records/bulk`, { items: [{ id: recordIds[2], responses: [answer] }] })).status).toBe(200);
    expect(await labelOf()).toMatchObject({ records: 2, percent_agreement: 50 });
    expect((await api.delete(`/users/${third.id}`)).status).toBe(200);
    expect(await labelOf()).toMatchObject({ records: 2, percent_agreement: 100 });
  });

  it("follows a question's reordered options", async () => {
    const labelsOf = async () => {
      const res = await api.get(`/datasets/${changing.id}/agreement`);
      return res.body.questions.find((q: { question: { name: string } }) => q.question.name === 'topics').labels.map((l: { label: string }) => l.label);
    };
    expect(await labelsOf()).toEqual(['sports', 'politics', 'tech']);
    const options = ['tech', 'politics', 'sports'].map((value) => ({ value, text: value, description: null }));
    const res = await api.patch(`/questions/${changing.questionIds.topics}`, { settings: { type: 'multi_label_selection', options } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await labelsOf()).toEqual(['tech', 'politics', 'sports']);
  });

  it('narrows to validated records as they are validated and reopened', async () => {
    const validatedOnly = filtersQuery({ and: [{ type: 'terms', scope: { entity: 'record', property: 'status' }, values: ['validated'] }] });
    const validated = async () => {
      const res = await api.get(`/datasets/${changing.id}/agreement${validatedOnly}`);
      return res.body.questions.find((q: { question: { name: string } }) => q.question.name === 'label').records;
    };
    expect(await validated()).toBe(0);
    expect((await api.put(`/records/${recordIds[2]}/validation`, { values: values({ label: 'positive' }) })).status).toBe(200);
    expect(await validated()).toBe(1);
    expect((await api.delete(`/records/${recordIds[2]}/validation`)).status).toBe(200);
    expect(await validated()).toBe(0);
  });
});

describe('GET /datasets/{id}/agreement after a response write', () => {
  let kept: SeededDataset;
  let recordIds: string[];
  const db = () => server.app.database.db;
  const trainOnly = filtersQuery({ and: [{ type: 'terms', scope: { entity: 'metadata', metadata_property: 'split' }, values: ['train'] }] });
  // Figures summed in another order may differ in their last digits.
  const rounded = (body: unknown) => JSON.parse(JSON.stringify(body, (_, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(9)) : v)));
  const agreement = async (query = '') => {
    const res = await api.get(`/datasets/${kept.id}/agreement${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  /** The figures from the kept answers without a new read, and that they equal those of a new read. */
  const expectKeptEqualsFresh = async () => {
    const reads = answerReadCount();
    const fromKept = [await agreement(), await agreement(trainOnly)];
    expect(answerReadCount()).toBe(reads);
    // A version step no response write announced: the next request reads every answer again.
    await sql`UPDATE response_set_versions SET version = version + 1 WHERE dataset_id = ${kept.id}`.execute(db());
    const fresh = [await agreement(), await agreement(trainOnly)];
    expect(answerReadCount()).toBe(reads + 1);
    expect(rounded(fromKept)).toEqual(rounded(fresh));
    return fromKept[0];
  };
  const labelIn = (body: { questions: { question: { name: string } }[] }) => body.questions.find((q) => q.question.name === 'label');
  const responseOf = async (recordId: string, userId: string) => {
    const res = await api.get(`/datasets/${kept.id}/records?include=responses&limit=100`);
    const record = res.body.items.find((r: { id: string }) => r.id === recordId);
    return record.responses.find((r: { user_id: string }) => r.user_id === userId) as { id: string };
  };

  beforeAll(async () => {
    kept = await seedDataset(server.app.database.db, server.app.database.dialect, {
      workspaceId: principals.workspace.id,
      name: uniqueName('agreement-kept'),
      minSubmitted: 2,
      metadata: [{ name: 'split', settings: { type: 'terms', values: ['train', 'test'] } }],
    });
    const first = principals.annotatorMember.id;
    const items = ['train', 'train', 'test'].map((split, n) => ({
      fields: { text: `kept ${n}` },
      metadata: { split },
      responses: [submitted(first, { label: 'positive', rating: 2 }), submitted(second.id, { label: n === 1 ? 'negative' : 'positive', rating: 3 })],
    }));
    expect((await api.put(`/datasets/${kept.id}/records/bulk`, { items })).status).toBe(200);
    recordIds = (await api.get(`/datasets/${kept.id}/records?limit=100`)).body.items.map((r: { id: string }) => r.id);
    await agreement();
    await agreement(trainOnly);
  });

  it('writes a changed, a drafted and a deleted response into the kept answers', async () => {
    const changed = await responseOf(recordIds[1], second.id);
    expect((await second.api.put(`/responses/${changed.id}`, { status: 'submitted', values: values({ label: 'positive', rating: 2 }) })).status).toBe(200);
    expect(labelIn(await expectKeptEqualsFresh())).toMatchObject({ records: 3, percent_agreement: 100 });
    expect((await second.api.put(`/responses/${changed.id}`, { status: 'draft', values: values({ label: 'negative' }) })).status).toBe(200);
    expect(labelIn(await expectKeptEqualsFresh())).toMatchObject({ records: 2, percent_agreement: 100 });
    const deleted = await responseOf(recordIds[0], second.id);
    expect((await second.api.delete(`/responses/${deleted.id}`)).status).toBe(200);
    expect(labelIn(await expectKeptEqualsFresh())).toMatchObject({ records: 1, percent_agreement: 100 });
  });

  it('writes a new response into the kept answers, on a record new to them too', async () => {
    const third = await createUser(api, { role: 'annotator' });
    await addMember(api, principals.workspace.id, third.id);
    const created = await third.api.post(`/records/${recordIds[2]}/responses`, { status: 'submitted', values: values({ label: 'negative', rating: 5 }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(labelIn(await expectKeptEqualsFresh())).toMatchObject({ records: 1, percent_agreement: expect.closeTo(100 / 3, 9) });
    // A record without answers until now, answered through the bulk route: it joins the table with its rid (the filter reads it).
    expect((await api.put(`/datasets/${kept.id}/records/bulk`, { items: [{ fields: { text: 'kept new' }, metadata: { split: 'train' } }] })).status).toBe(200);
    await agreement(trainOnly);
    const fresh = (await api.get(`/datasets/${kept.id}/records?limit=100`)).body.items.find((r: { fields: { text: string } }) => r.fields.text === 'kept new');
    for (const user of [third, second]) {
      const bulk = await user.api.post('/me/responses/bulk', { items: [{ record_id: fresh.id, status: 'submitted', values: values({ label: 'neutral' }) }] });
      expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
      expect(bulk.body.items[0].error).toBeNull();
    }
    const figures = await expectKeptEqualsFresh();
    expect(labelIn(figures)).toMatchObject({ records: 2 });
    expect(labelIn(await agreement(trainOnly))).toMatchObject({ records: 1, percent_agreement: 100 });
  });

  it('reads every answer again when a response write follows a change it was not told of', async () => {
    const answers = [submitted(principals.annotatorMember.id, { label: 'negative' }), submitted(second.id, { label: 'negative' })];
    expect((await api.put(`/datasets/${kept.id}/records/bulk`, { items: [{ id: recordIds[0], responses: answers }] })).status).toBe(200);
    const reads = answerReadCount();
    const changed = await responseOf(recordIds[0], second.id);
    expect((await second.api.put(`/responses/${changed.id}`, { status: 'submitted', values: values({ label: 'positive' }) })).status).toBe(200);
    const afterWrite = await agreement();
    expect(answerReadCount()).toBe(reads + 1);
    expect(labelIn(afterWrite)).toMatchObject({ records: 3 });
    await sql`UPDATE response_set_versions SET version = version + 1 WHERE dataset_id = ${kept.id}`.execute(db());
    expect(rounded(afterWrite)).toEqual(rounded(await agreement()));
  });
});
