import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { addMember, createPrincipals, createUser, FORBIDDEN, type Principals, type TestUser } from '../../../test/fixtures.js';
import { createSearchDataset, upsertRecords, type SearchDataset } from '../../../test/search-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

let server: TestServer;
let api: TestApi;
let p: Principals;
let ds: SearchDataset;
let records: { id: string; external_id: string }[];
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url);
  p = await createPrincipals(api);
  ds = await createSearchDataset(api, p.workspace.id);
  const q = ds.questionIds;
  records = await upsertRecords(
    api,
    ds.id,
    Array.from({ length: 7 }, (_, i) => ({
      external_id: `e${i}`,
      fields: { text: `record ${i}` },
      metadata: { n: i },
      vectors: { emb: [i, 1, 0] },
      suggestions: i === 0 ? [{ question_id: q.label, value: 'positive', agent: 'zeta' }, { question_id: q.topics, value: ['tech'], agent: 'alpha' }] : [],
      responses:
        i === 0
          ? [
              { user_id: p.annotatorMember.id, status: 'submitted', values: { label: { value: 'positive' } } },
              { user_id: p.adminMember.id, status: 'draft', values: { label: { value: 'negative' } } },
            ]
          : [],
    })),
  );
  await upsertRecords(api, ds.id, [{ external_id: 'e1', suggestions: [{ question_id: q.label, value: 'negative', agent: 'alpha' }] }]);
});
afterAll(() => server.close());

describe('GET /datasets/{id}/records', () => {
  const list = (query = '', as: TestApi = p.owner) => as.get(`/datasets/${ds.id}/records${query ? `?${query}` : ''}`);

  it('lists in insertion order with total; relationships absent unless included', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(7);
    expect(res.body.items.map((r: any) => r.external_id)).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
    const first = res.body.items[0];
    expect(Object.keys(first).sort()).toEqual(['dataset_id', 'external_id', 'fields', 'id', 'inserted_at', 'metadata', 'status', 'updated_at']);
    expect(first.status).toBe('completed');
  });

  it('pages with offset/limit (default 50, 1..1000)', async () => {
    const res = await list('offset=2&limit=3');
    expect(res.body.items.map((r: any) => r.external_id)).toEqual(['e2', 'e3', 'e4']);
    expect(res.body.total).toBe(7);
    expect((await list('limit=0')).status).toBe(422);
    expect((await list('limit=1001')).status).toBe(422);
    expect((await list('offset=-1')).status).toBe(422);
  });

  it('include forms', async () => {
    const both = await list('include=responses&include=suggestions&limit=1');
    expect(both.body.items[0].responses).toHaveLength(2);
    expect(both.body.items[0].suggestions).toHaveLength(2);
    expect(both.body.items[0]).not.toHaveProperty('vectors');
    const comma = await list('include=responses,suggestions,vectors&limit=1');
    expect(comma.body.items[0].vectors).toEqual({ emb: [0, 1, 0] });
    const named = await list('include=vectors:emb&limit=2');
    expect(named.body.items[1].vectors).toEqual({ emb: [1, 1, 0] });
    expect(named.body.items[1]).not.toHaveProperty('responses');
  });

  it('include errors are 422', async () => {
    expect((await list('include=nope')).status).toBe(422);
    expect((await list('include=vectors,vectors:emb')).status).toBe(422);
    const malformed = await list('include=a,b:c');
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail.params.errors[0].msg).toBe(
      "'include' query parameter must be of the form 'key1,key2,key3' or 'key:value1,value2,value3'",
    );
  });

  it('admin members and owners only', async () => {
    expect((await list('', p.adminMember.api)).status).toBe(200);
    for (const other of [p.annotatorMember.api, p.adminOutsider.api, p.annotatorOutsider.api]) {
      const res = await list('', other);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    expect((await list('', p.anonymous)).status).toBe(401);
    const missing = await p.owner.get(`/datasets/${MISSING}/records`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: `Dataset with id \`${MISSING}\` not found` });
  });
});

describe('GET /records/{id}', () => {
  it('returns the record with every response, suggestions and vectors; annotators get their own response only', async () => {
    const res = await p.adminMember.api.get(`/records/${records[0].id}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(records[0].id);
    expect(res.body.responses.map((r: any) => r.user_id).sort()).toEqual([p.annotatorMember.id, p.adminMember.id].sort());
    const annotator = await p.annotatorMember.api.get(`/records/${records[0].id}`);
    expect(annotator.body.responses.map((r: any) => r.user_id)).toEqual([p.annotatorMember.id]);
    expect(annotator.body.suggestions).toHaveLength(2);
    expect(res.body.suggestions).toHaveLength(2);
    expect(res.body.vectors).toEqual({ emb: [0, 1, 0] });
    const bare = await p.owner.get(`/records/${records[3].id}`);
    expect(bare.body.responses).toEqual([]);
    expect(bare.body.suggestions).toEqual([]);
  });

  it('404 for unknown ids, 422 for malformed, 403 for outsiders', async () => {
    const missing = await p.owner.get(`/records/${MISSING}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: `Record with id \`${MISSING}\` not found` });
    expect((await p.owner.get('/records/nope')).status).toBe(422);
    expect((await p.annotatorOutsider.api.get(`/records/${records[0].id}`)).status).toBe(403);
    expect((await p.adminOutsider.api.get(`/records/${records[0].id}`)).status).toBe(403);
  });
});

describe('GET /datasets/{id}/records/search/suggestions/options', () => {
  it('one item per question in creation order with distinct agents', async () => {
    const res = await p.annotatorMember.api.get(`/datasets/${ds.id}/records/search/suggestions/options`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        { question: { id: ds.questionIds.label, name: 'label' }, agents: ['alpha', 'zeta'] },
        { question: { id: ds.questionIds.topics, name: 'topics' }, agents: ['alpha'] },
        { question: { id: ds.questionIds.rating, name: 'rating' }, agents: [] },
        { question: { id: ds.questionIds.comment, name: 'comment' }, agents: [] },
      ],
    });
  });

  it('members only', async () => {
    expect((await p.annotatorOutsider.api.get(`/datasets/${ds.id}/records/search/suggestions/options`)).status).toBe(403);
    expect((await p.owner.get(`/datasets/${MISSING}/records/search/suggestions/options`)).status).toBe(404);
  });
});

describe('questions hidden from annotators (Scholia extension)', () => {
  // A dataset of its own with `topics` hidden; its record has a suggestion and answers for it.
  let hidden: SearchDataset;
  let recordId: string;
  let otherAnnotator: TestUser;

  beforeAll(async () => {
    otherAnnotator = await createUser(api, { role: 'annotator' });
    await addMember(api, p.workspace.id, otherAnnotator.id);
    hidden = await createSearchDataset(api, p.workspace.id);
    const hide = await p.owner.patch(`/questions/${hidden.questionIds.topics}`, { visible_for_annotators: false });
    expect(hide.status, JSON.stringify(hide.body)).toBe(200);
    const q = hidden.questionIds;
    [{ id: recordId }] = await upsertRecords(api, hidden.id, [
      {
        fields: { text: 'hidden' },
        metadata: { n: 1, secret: 'classified', extra: 'unlisted' },
        suggestions: [
          { question_id: q.label, value: 'positive', agent: 'visible-agent' },
          { question_id: q.topics, value: ['tech'], agent: 'secret-agent' },
        ],
        responses: [
          { user_id: p.annotatorMember.id, status: 'submitted', values: { label: { value: 'positive' }, topics: { value: ['tech'] } } },
          { user_id: p.adminMember.id, status: 'draft', values: { label: { value: 'negative' }, topics: { value: ['sports'] } } },
          { user_id: otherAnnotator.id, status: 'draft', values: { label: { value: 'neutral' } } },
        ],
      },
    ]);
  });

  it('GET /records/{id}: annotators get no suggestion and no response value of a hidden question', async () => {
    const res = await p.annotatorMember.api.get(`/records/${recordId}`);
    expect(res.status).toBe(200);
    expect(res.body.suggestions.map((s: any) => s.question_id)).toEqual([hidden.questionIds.label]);
    expect(res.body.responses.map((r: any) => r.values)).toEqual([{ label: { value: 'positive' } }]);
    expect(JSON.stringify(res.body)).not.toMatch(/secret-agent|tech|sports/);
  });

  it('GET /records/{id}: annotators get only their own response and the metadata visible to them, as on /me search', async () => {
    for (const annotator of [p.annotatorMember, otherAnnotator]) {
      const res = await annotator.api.get(`/records/${recordId}`);
      expect(res.status).toBe(200);
      expect(res.body.responses.map((r: any) => r.user_id)).toEqual([annotator.id]);
      expect(res.body.metadata).toEqual({ n: 1 });
      const search = await annotator.api.post(`/me/datasets/${hidden.id}/records/search?include=responses&include=suggestions`, {});
      const { record } = search.body.items[0];
      expect(res.body.responses).toEqual(record.responses);
      expect(res.body.suggestions).toEqual(record.suggestions);
      expect(res.body.metadata).toEqual(record.metadata);
    }
    const other = await otherAnnotator.api.get(`/records/${recordId}`);
    expect(other.body.responses.map((r: any) => r.values)).toEqual([{ label: { value: 'neutral' } }]);
    expect(JSON.stringify(other.body)).not.toMatch(/negative|classified|unlisted/);
  });

  it('GET /records/{id}/suggestions: annotators get none of a hidden question', async () => {
    const res = await p.annotatorMember.api.get(`/records/${recordId}/suggestions`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((s: any) => s.agent)).toEqual(['visible-agent']);
  });

  it('GET /records/{id}: owners and admins get everything', async () => {
    for (const client of [p.owner, p.adminMember.api]) {
      const res = await client.get(`/records/${recordId}`);
      expect(res.body.suggestions).toHaveLength(2);
      expect(res.body.metadata).toEqual({ n: 1, secret: 'classified', extra: 'unlisted' });
      const values = Object.fromEntries(res.body.responses.map((r: any) => [r.user_id, r.values]));
      expect(values[p.annotatorMember.id]).toEqual({ label: { value: 'positive' }, topics: { value: ['tech'] } });
      expect(values[p.adminMember.id]).toEqual({ label: { value: 'negative' }, topics: { value: ['sports'] } });
      expect(values[otherAnnotator.id]).toEqual({ label: { value: 'neutral' } });
    }
  });

  it('suggestion options: annotators do not get the hidden question; owners and admins do', async () => {
    const path = `/datasets/${hidden.id}/records/search/suggestions/options`;
    const q = hidden.questionIds;
    const annotator = await p.annotatorMember.api.get(path);
    expect(annotator.status).toBe(200);
    expect(annotator.body.items).toEqual([
      { question: { id: q.label, name: 'label' }, agents: ['visible-agent'] },
      { question: { id: q.rating, name: 'rating' }, agents: [] },
      { question: { id: q.comment, name: 'comment' }, agents: [] },
    ]);
    for (const client of [p.owner, p.adminMember.api]) {
      const res = await client.get(path);
      expect(res.body.items.map((item: any) => item.question.name)).toEqual(['label', 'topics', 'rating', 'comment']);
      expect(res.body.items[1].agents).toEqual(['secret-agent']);
    }
  });
});
