import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { createPrincipals, FORBIDDEN, UNAUTHORIZED, type Principals } from '../../../test/fixtures.js';
import { createSearchDataset, upsertRecords, type SearchDataset } from '../../../test/search-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { seededRandom } from '../../../test/seeded-random.js';

let server: TestServer;
let api: TestApi;
let p: Principals;
let ds: SearchDataset;
/** external_id → record id */
const ids: Record<string, string> = {};

const label = (value: string) => ({ label: { value } });

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url);
  p = await createPrincipals(api);
  ds = await createSearchDataset(api, p.workspace.id);
  const annotator = p.annotatorMember.id;
  const admin = p.adminMember.id;
  const q = ds.questionIds;
  const records = await upsertRecords(api, ds.id, [
    {
      external_id: 'r1',
      fields: { text: 'The quick brown fox', context: 'jumps over the lazy dog' },
      metadata: { n: 1, score: 0.1, group: 'a', secret: 'x' },
      vectors: { emb: [1, 0, 0] },
      suggestions: [{ question_id: q.label, value: 'positive', agent: 'model-a', score: 0.9, type: 'model' }],
      responses: [{ user_id: annotator, status: 'submitted', values: { ...label('positive'), rating: { value: 5 } } }],
    },
    {
      external_id: 'r2',
      fields: { text: 'Quick thinking saves the day', context: 'a fox appears' },
      metadata: { n: 2, score: 0.5, group: 'b', secret: 'y' },
      vectors: { emb: [0.9, 0.1, 0] },
      suggestions: [{ question_id: q.label, value: 'negative', agent: 'model-b', score: 0.3, type: 'human' }],
      responses: [{ user_id: admin, status: 'draft', values: { ...label('negative'), topics: { value: ['sports', 'tech'] } } }],
    },
    {
      external_id: 'r3',
      fields: { text: 'Nothing to see here', context: 'move along' },
      metadata: { n: 3, score: 0.9, group: 'a', extra: 'e' },
      vectors: { emb: [0, 1, 0] },
      suggestions: [{ question_id: q.topics, value: ['sports', 'politics'], agent: 'model-a', score: [0.4, 0.6] }],
      responses: [{ user_id: annotator, status: 'discarded' }],
    },
    {
      external_id: 'r4',
      fields: { text: 'AND NEAR( * : "weird" text:', context: 'operators as words' },
      metadata: { n: 4, group: ['a', 'c'] },
      vectors: { emb: [0, 0, 1] },
    },
    {
      external_id: 'r5',
      fields: { text: 'café au lait', context: 'french drink' },
      responses: [
        { user_id: annotator, status: 'submitted', values: { ...label('neutral'), rating: { value: 2 } } },
        { user_id: admin, status: 'submitted', values: label('positive') },
      ],
    },
    {
      external_id: 'r6',
      fields: { text: 'the brown dog', context: 'sleeps' },
      metadata: { n: 6, secret: true },
      vectors: { emb: [-1, 0, 0] },
    },
  ]);
  for (const record of records) ids[record.external_id] = record.id;
});
afterAll(() => server.close());

interface SearchCall {
  body?: unknown;
  query?: string;
  as?: TestApi;
  me?: boolean;
}

async function search({ body = {}, query = '', as, me = false }: SearchCall) {
  const client = as ?? p.owner;
  return client.post(`${me ? '/me' : ''}/datasets/${ds.id}/records/search${query ? `?${query}` : ''}`, body);
}

/** external ids of the hits, in order */
async function hits(call: SearchCall): Promise<string[]> {
  const res = await search(call);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items.map((item: { record: { external_id: string } }) => item.record.external_id);
}

const filter = (entry: Record<string, unknown>) => ({ filters: { type: 'and', and: [entry] } });
const terms = (scope: Record<string, unknown>, values: unknown[]) => filter({ type: 'terms', scope, values });
const range = (scope: Record<string, unknown>, bounds: Record<string, unknown>) => filter({ type: 'range', scope, ...bounds });
const unprocessable = (detail: string) => ({ detail });

describe('search authorization (contract §1.5)', () => {
  it('non-me search: owner and admin members only', async () => {
    expect((await search({ as: p.owner })).status).toBe(200);
    expect((await search({ as: p.adminMember.api })).status).toBe(200);
    for (const outsider of [p.adminOutsider.api, p.annotatorMember.api, p.annotatorOutsider.api]) {
      const res = await search({ as: outsider });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    const anonymous = await search({ as: p.anonymous });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);
  });

  it('me search: any member, never outsiders', async () => {
    for (const member of [p.owner, p.adminMember.api, p.annotatorMember.api]) expect((await search({ as: member, me: true })).status).toBe(200);
    for (const outsider of [p.adminOutsider.api, p.annotatorOutsider.api]) expect((await search({ as: outsider, me: true })).status).toBe(403);
  });

  it('unknown dataset is 404, malformed id is a validation 422', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const res = await p.owner.post(`/datasets/${missing}/records/search`, {});
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Dataset with id \`${missing}\` not found` });
    expect((await p.owner.post('/datasets/not-a-uuid/records/search', {})).status).toBe(422);
  });
});

describe('plain listing through search', () => {
  it('without query or filters: insertion order, null query_score, total', async () => {
    const res = await search({ body: { query: null, filters: null, sort: null } });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(6);
    expect(res.body.items.map((i: any) => i.record.external_id)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
    expect(res.body.items.every((i: any) => 'query_score' in i && i.query_score === null)).toBe(true);
    expect(res.body.items[0].record).not.toHaveProperty('responses');
  });

  it('frontend `query: {}` and unknown keys are accepted', async () => {
    expect(await hits({ body: { query: {}, filters: { type: 'and', and: [{ type: 'terms', scope: { entity: 'record', property: 'status' }, values: ['pending', 'completed'] }] }, extra: 1 } })).toHaveLength(6);
  });

  it('pages with offset and limit; total counts every match', async () => {
    const res = await search({ query: 'offset=2&limit=2' });
    expect(res.body.items.map((i: any) => i.record.external_id)).toEqual(['r3', 'r4']);
    expect(res.body.total).toBe(6);
    const last = await search({ query: 'offset=5&limit=2' });
    expect(last.body.items.map((i: any) => i.record.external_id)).toEqual(['r6']);
    expect(last.body.total).toBe(6);
    const past = await search({ query: 'offset=10&limit=2' });
    expect(past.body).toEqual({ items: [], total: 6 });
  });

  it('limit is 1..1000', async () => {
    expect((await search({ query: 'limit=0' })).status).toBe(422);
    expect((await search({ query: 'limit=1001' })).status).toBe(422);
    expect((await search({ query: 'limit=1000' })).status).toBe(200);
  });
});

describe('text search', () => {
  it('matches tokens case-insensitively, ranked, with a numeric query_score', async () => {
    const res = await search({ body: { query: { text: { q: 'QUICK', field: null } } } });
    expect(res.body.items.map((i: any) => i.record.external_id).sort()).toEqual(['r1', 'r2']);
    expect(res.body.total).toBe(2);
    const scores = res.body.items.map((i: any) => i.query_score);
    expect(scores.every((s: unknown) => typeof s === 'number' && s > 0)).toBe(true);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('requires every term, across fields', async () => {
    expect((await hits({ body: { query: { text: { q: 'quick fox' } } } })).sort()).toEqual(['r1', 'r2']);
    expect(await hits({ body: { query: { text: { q: 'quick dog lazy' } } } })).toEqual(['r1']);
    expect(await hits({ body: { query: { text: { q: 'quick nothing' } } } })).toEqual([]);
  });

  it('restricts to one field', async () => {
    expect(await hits({ body: { query: { text: { q: 'quick fox', field: 'text' } } } })).toEqual(['r1']);
    expect(await hits({ body: { query: { text: { q: 'fox', field: 'context' } } } })).toEqual(['r2']);
  });

  it('keeps accents, as the reference engine’s standard analyzer', async () => {
    expect(await hits({ body: { query: { text: { q: 'café' } } } })).toEqual(['r5']);
    expect(await hits({ body: { query: { text: { q: 'CAFÉ' } } } })).toEqual(['r5']);
    expect(await hits({ body: { query: { text: { q: 'cafe' } } } })).toEqual([]);
  });

  it('reads FTS5 and tsquery syntax in user text as words or query syntax, never failing', async () => {
    for (const q of ['"', '*', 'AND', 'NEAR(', ':', 'text:quick', '"unbalanced', 'a OR b', 'NOT', '^', '-', '(((', 'c0 : x', '{text}']) {
      const res = await search({ body: { query: { text: { q } } } });
      expect(res.status, `${q}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    expect(await hits({ body: { query: { text: { q: 'AND' } } } })).toEqual(['r4']);
    expect(await hits({ body: { query: { text: { q: 'NEAR(' } } } })).toEqual(['r4']);
    expect(await hits({ body: { query: { text: { q: '"weird"' } } } })).toEqual(['r4']);
    expect(await hits({ body: { query: { text: { q: '*' } } } })).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
    expect(await hits({ body: { query: { text: { q: 'text:quick' } } } })).toEqual([]);
    expect(await hits({ body: { query: { text: { q: 'c0 : x' } } } })).toEqual([]);
  });

  it('combines with filters and sort', async () => {
    const body = { query: { text: { q: 'brown' } }, ...range({ entity: 'metadata', metadata_property: 'n' }, { ge: 2 }) };
    expect(await hits({ body })).toEqual(['r6']);
    const sorted = await search({ body: { query: { text: { q: 'brown' } }, sort: [{ scope: { entity: 'metadata', metadata_property: 'n' }, order: 'desc' }] } });
    expect(sorted.body.items.map((i: any) => i.record.external_id)).toEqual(['r6', 'r1']);
    // As the reference engine: a field sort skips relevance scoring.
    expect(sorted.body.items.every((i: any) => i.query_score === null)).toBe(true);
  });

  it('unknown field is 422', async () => {
    const res = await search({ body: { query: { text: { q: 'x', field: 'nope' } } } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(unprocessable(`Field \`nope\` not found in dataset \`${ds.id}\`.`));
  });
});

describe('filters', () => {
  it('record scope: status, external_id (numbers coerced), id, inserted_at range', async () => {
    expect(await hits({ body: terms({ entity: 'record', property: 'status' }, ['completed']) })).toEqual(['r1', 'r5']);
    expect(await hits({ body: terms({ entity: 'record', property: 'external_id' }, ['r2', 'r6', 7]) })).toEqual(['r2', 'r6']);
    expect(await hits({ body: terms({ entity: 'record', property: 'id' }, [ids.r3]) })).toEqual(['r3']);
    const all = await search({});
    const third = all.body.items[2].record.inserted_at as string;
    expect(await hits({ body: range({ entity: 'record', property: 'inserted_at' }, { ge: third }) })).toEqual(['r3', 'r4', 'r5', 'r6']);
    expect(await hits({ body: range({ entity: 'record', property: 'inserted_at' }, { le: '2000-01-01' }) })).toEqual([]);
  });

  it('metadata scope: terms (scalars, lists, booleans) and ranges', async () => {
    expect(await hits({ body: terms({ entity: 'metadata', metadata_property: 'group' }, ['a']) })).toEqual(['r1', 'r3', 'r4']);
    expect(await hits({ body: terms({ entity: 'metadata', metadata_property: 'group' }, ['c', 'b']) })).toEqual(['r2', 'r4']);
    expect(await hits({ body: terms({ entity: 'metadata', metadata_property: 'secret' }, [true]) })).toEqual(['r6']);
    expect(await hits({ body: terms({ entity: 'metadata', metadata_property: 'n' }, [3]) })).toEqual(['r3']);
    expect(await hits({ body: range({ entity: 'metadata', metadata_property: 'n' }, { ge: 2, le: 4 }) })).toEqual(['r2', 'r3', 'r4']);
    expect(await hits({ body: range({ entity: 'metadata', metadata_property: 'score' }, { ge: 0.5 }) })).toEqual(['r2', 'r3']);
  });

  it('numeric string bounds compare as numbers on integer/float metadata, scores and ratings', async () => {
    expect(await hits({ body: range({ entity: 'metadata', metadata_property: 'n' }, { ge: '2', le: '4' }) })).toEqual(['r2', 'r3', 'r4']);
    expect(await hits({ body: range({ entity: 'metadata', metadata_property: 'n' }, { ge: '20' }) })).toEqual([]);
    expect(await hits({ body: range({ entity: 'metadata', metadata_property: 'n' }, { ge: '3.5' }) })).toEqual(['r4', 'r6']);
    expect(await hits({ body: range({ entity: 'metadata', metadata_property: 'score' }, { le: '0.5' }) })).toEqual(['r1', 'r2']);
    expect(await hits({ body: range({ entity: 'suggestion', question: 'label', property: 'score' }, { le: '0.5' }) })).toEqual(['r2']);
    expect(await hits({ body: range({ entity: 'suggestion', question: 'rating', property: 'score' }, { ge: '0' }) })).toEqual([]);
    expect(await hits({ body: range({ entity: 'response', question: 'rating' }, { ge: '4' }) })).toEqual(['r1']);
  });

  it('a non-numeric string bound on a numeric property is a validation 422', async () => {
    const res = await search({ body: range({ entity: 'metadata', metadata_property: 'n' }, { ge: 'many' }) });
    expect(res.status).toBe(422);
    expect(res.body.detail.params.errors[0]).toMatchObject({
      loc: ['body', 'filters', 'and', 0, 'ge'],
      msg: 'Input should be a valid number, unable to parse string as a number',
    });
    const score = await search({ body: range({ entity: 'suggestion', question: 'label', property: 'score' }, { le: 'high' }) });
    expect(score.status).toBe(422);
  });

  it('suggestion scope: value, score, agent, type', async () => {
    expect(await hits({ body: terms({ entity: 'suggestion', question: 'label' }, ['positive']) })).toEqual(['r1']);
    expect(await hits({ body: terms({ entity: 'suggestion', question: 'topics', property: 'value' }, ['politics']) })).toEqual(['r3']);
    expect(await hits({ body: range({ entity: 'suggestion', question: 'label', property: 'score' }, { ge: 0.5 }) })).toEqual(['r1']);
    expect(await hits({ body: range({ entity: 'suggestion', question: 'topics', property: 'score' }, { ge: 0.5 }) })).toEqual(['r3']);
    expect(await hits({ body: terms({ entity: 'suggestion', question: 'label', property: 'agent' }, ['model-b']) })).toEqual(['r2']);
    expect(await hits({ body: terms({ entity: 'suggestion', question: 'label', property: 'type' }, ['model']) })).toEqual(['r1']);
  });

  it('response values: any user on the admin route, only the caller on /me', async () => {
    expect(await hits({ body: terms({ entity: 'response', question: 'label' }, ['positive']) })).toEqual(['r1', 'r5']);
    expect(await hits({ body: terms({ entity: 'response', question: 'topics' }, ['tech']) })).toEqual(['r2']);
    expect(await hits({ body: range({ entity: 'response', question: 'rating' }, { ge: 4 }) })).toEqual(['r1']);
    expect(await hits({ me: true, as: p.annotatorMember.api, body: terms({ entity: 'response', question: 'label' }, ['positive']) })).toEqual(['r1']);
    expect(await hits({ me: true, as: p.adminMember.api, body: terms({ entity: 'response', question: 'label' }, ['positive']) })).toEqual(['r5']);
  });

  it('response status: statuses and pending, OR-combined; pending = nobody responded', async () => {
    const status = (values: string[]) => terms({ entity: 'response', property: 'status' }, values);
    expect(await hits({ body: status(['submitted']) })).toEqual(['r1', 'r5']);
    expect(await hits({ body: status(['draft']) })).toEqual(['r2']);
    expect(await hits({ body: status(['discarded']) })).toEqual(['r3']);
    expect(await hits({ body: status(['pending']) })).toEqual(['r4', 'r6']);
    expect(await hits({ body: status(['submitted', 'pending']) })).toEqual(['r1', 'r4', 'r5', 'r6']);
  });

  it('response status on /me: the caller’s responses; pending = the caller has none', async () => {
    const status = (values: string[]) => terms({ entity: 'response', property: 'status' }, values);
    const annotator = p.annotatorMember.api;
    expect(await hits({ me: true, as: annotator, body: status(['submitted']) })).toEqual(['r1', 'r5']);
    expect(await hits({ me: true, as: annotator, body: status(['pending']) })).toEqual(['r2', 'r4', 'r6']);
    expect(await hits({ me: true, as: annotator, body: status(['discarded', 'draft']) })).toEqual(['r3']);
    expect(await hits({ me: true, as: p.adminMember.api, body: status(['draft']) })).toEqual(['r2']);
    expect(await hits({ me: true, as: p.adminMember.api, body: status(['pending']) })).toEqual(['r1', 'r3', 'r4', 'r6']);
    // the frontend's pending view: response status pending AND record status pending
    const body = {
      filters: {
        and: [
          { type: 'terms', scope: { entity: 'response', property: 'status' }, values: ['pending'] },
          { type: 'terms', scope: { entity: 'record', property: 'status' }, values: ['pending'] },
        ],
      },
    };
    expect(await hits({ me: true, as: annotator, body })).toEqual(['r2', 'r4', 'r6']);
  });

  it('several filters are ANDed', async () => {
    const body = {
      filters: {
        and: [
          { type: 'terms', scope: { entity: 'metadata', metadata_property: 'group' }, values: ['a'] },
          { type: 'range', scope: { entity: 'metadata', metadata_property: 'n' }, ge: 2 },
        ],
      },
    };
    expect(await hits({ body })).toEqual(['r3', 'r4']);
  });

  it('unknown question or metadata property is 422 with the contract message', async () => {
    const q = await search({ body: terms({ entity: 'response', question: 'nope' }, ['x']) });
    expect(q.status).toBe(422);
    expect(q.body).toEqual(unprocessable(`Question not found filtering by name=nope, dataset_id=${ds.id}`));
    const s = await search({ body: terms({ entity: 'suggestion', question: 'nope' }, ['x']) });
    expect(s.body).toEqual(unprocessable(`Question not found filtering by name=nope, dataset_id=${ds.id}`));
    const m = await search({ body: range({ entity: 'metadata', metadata_property: 'nope' }, { ge: 1 }) });
    expect(m.status).toBe(422);
    expect(m.body).toEqual(unprocessable(`MetadataProperty not found filtering by name=nope, dataset_id=${ds.id}`));
    const sort = await search({ body: { sort: [{ scope: { entity: 'metadata', metadata_property: 'nope' } }] } });
    expect(sort.body).toEqual(unprocessable(`MetadataProperty not found filtering by name=nope, dataset_id=${ds.id}`));
  });

  it('range needs a bound and ge ≤ le; terms need 1..250 values; and 1..50 filters', async () => {
    const noBound = await search({ body: range({ entity: 'metadata', metadata_property: 'n' }, { ge: null }) });
    expect(noBound.status).toBe(422);
    expect(noBound.body.detail.params.errors[0].msg).toBe("Value error, At least one of 'ge' or 'le' must be provided");
    const inverted = await search({ body: range({ entity: 'metadata', metadata_property: 'n' }, { ge: 5, le: 1 }) });
    expect(inverted.status).toBe(422);
    expect((await search({ body: terms({ entity: 'record', property: 'status' }, []) })).status).toBe(422);
    expect((await search({ body: terms({ entity: 'record', property: 'status' }, Array(251).fill('x')) })).status).toBe(422);
    expect((await search({ body: { filters: { and: [] } } })).status).toBe(422);
    expect((await search({ body: terms({ entity: 'record', property: 'nope' }, ['x']) })).status).toBe(422);
    expect((await search({ body: terms({ entity: 'nope' }, ['x']) })).status).toBe(422);
  });
});

describe('sort', () => {
  it('by metadata, missing values last in both directions', async () => {
    const by = (order: string) => ({ sort: [{ scope: { entity: 'metadata', metadata_property: 'n' }, order }] });
    expect(await hits({ body: by('desc') })).toEqual(['r6', 'r4', 'r3', 'r2', 'r1', 'r5']);
    expect(await hits({ body: by('asc') })).toEqual(['r1', 'r2', 'r3', 'r4', 'r6', 'r5']);
  });

  it('by record properties and several keys', async () => {
    expect(await hits({ body: { sort: [{ scope: { entity: 'record', property: 'external_id' }, order: 'desc' }] } })).toEqual(['r6', 'r5', 'r4', 'r3', 'r2', 'r1']);
    expect(await hits({ body: { sort: [{ scope: { entity: 'record', property: 'inserted_at' }, order: 'desc' }] } })).toEqual(['r6', 'r5', 'r4', 'r3', 'r2', 'r1']);
    const body = {
      sort: [
        { scope: { entity: 'record', property: 'status' }, order: 'asc' },
        { scope: { entity: 'metadata', metadata_property: 'n' }, order: 'desc' },
      ],
    };
    expect(await hits({ body })).toEqual(['r1', 'r5', 'r6', 'r4', 'r3', 'r2']);
  });

  it('by suggestion score and response value', async () => {
    expect(await hits({ body: { sort: [{ scope: { entity: 'suggestion', question: 'label', property: 'score' }, order: 'desc' }] } })).toEqual([
      'r1', 'r2', 'r3', 'r4', 'r5', 'r6',
    ]);
    expect(await hits({ body: { sort: [{ scope: { entity: 'response', question: 'rating' }, order: 'asc' }] } })).toEqual([
      'r5', 'r1', 'r2', 'r3', 'r4', 'r6',
    ]);
  });

  it('1..10 keys', async () => {
    expect((await search({ body: { sort: [] } })).status).toBe(422);
    const eleven = Array.from({ length: 11 }, () => ({ scope: { entity: 'record', property: 'id' } }));
    expect((await search({ body: { sort: eleven } })).status).toBe(422);
  });
});

describe('include and /me visibility', () => {
  it('include forms (repeated, comma, vectors, vectors:names)', async () => {
    const res = await search({ query: 'include=responses&include=suggestions&limit=1' });
    const record = res.body.items[0].record;
    expect(record.responses).toHaveLength(1);
    expect(record.suggestions).toHaveLength(1);
    expect(record).not.toHaveProperty('vectors');
    const comma = await search({ query: 'include=responses,vectors&limit=1' });
    expect(comma.body.items[0].record.vectors).toEqual({ emb: [1, 0, 0] });
    expect(comma.body.items[0].record).not.toHaveProperty('suggestions');
    const named = await search({ query: 'include=vectors:emb&limit=1' });
    expect(named.body.items[0].record.vectors).toEqual({ emb: [1, 0, 0] });
    const none = await search({ query: 'include=vectors:other&limit=1' });
    expect(none.body.items[0].record.vectors).toEqual({});
  });

  it('include errors are 422', async () => {
    expect((await search({ query: 'include=nope' })).status).toBe(422);
    expect((await search({ query: 'include=vectors&include=vectors:emb' })).status).toBe(422);
    const malformed = await search({ query: 'include=a,b:c' });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail.params.errors[0].msg).toContain("'include' query parameter must be of the form");
  });

  it('/me returns only the caller’s response', async () => {
    const res = await search({ me: true, as: p.annotatorMember.api, query: 'include=responses', body: terms({ entity: 'record', property: 'external_id' }, ['r5']) });
    expect(res.body.items[0].record.responses).toHaveLength(1);
    expect(res.body.items[0].record.responses[0].user_id).toBe(p.annotatorMember.id);
    const all = await search({ query: 'include=responses', body: terms({ entity: 'record', property: 'external_id' }, ['r5']) });
    expect(all.body.items[0].record.responses).toHaveLength(2);
  });

  it('/me hides metadata keys annotators may not see', async () => {
    const body = terms({ entity: 'record', property: 'external_id' }, ['r1', 'r3']);
    const annotator = await search({ me: true, as: p.annotatorMember.api, body });
    expect(annotator.body.items.map((i: any) => i.record.metadata)).toEqual([
      { n: 1, score: 0.1, group: 'a' },
      { n: 3, score: 0.9, group: 'a' },
    ]);
    const admin = await search({ me: true, as: p.adminMember.api, body });
    expect(admin.body.items[1].record.metadata).toEqual({ n: 3, score: 0.9, group: 'a', extra: 'e' });
    const owner = await search({ me: true, body });
    expect(owner.body.items[0].record.metadata).toEqual({ n: 1, score: 0.1, group: 'a', secret: 'x' });
  });

  it('/me: annotators cannot filter or sort by a metadata property hidden from them (its values cannot be probed)', async () => {
    const notFound = unprocessable(`MetadataProperty not found filtering by name=secret, dataset_id=${ds.id}`);
    const byHidden = terms({ entity: 'metadata', metadata_property: 'secret' }, ['x']);
    const filtered = await search({ me: true, as: p.annotatorMember.api, body: byHidden });
    expect(filtered.status).toBe(422);
    expect(filtered.body).toEqual(notFound);
    const sorted = await search({ me: true, as: p.annotatorMember.api, body: { sort: [{ scope: { entity: 'metadata', metadata_property: 'secret' }, order: 'asc' }] } });
    expect(sorted.status).toBe(422);
    expect(sorted.body).toEqual(notFound);
    // Visible properties still filter; admins may use the hidden one.
    expect((await search({ me: true, as: p.annotatorMember.api, body: terms({ entity: 'metadata', metadata_property: 'group' }, ['a']) })).status).toBe(200);
    const admin = await search({ me: true, as: p.adminMember.api, body: byHidden });
    expect(admin.body.items.map((i: any) => i.record.external_id)).toEqual(['r1']);
  });
});

describe('questions hidden from annotators (Scholia extension)', () => {
  // A dataset of its own: `topics` and `comment` hidden, `label` and `rating` visible.
  let hidden: SearchDataset;
  const hiddenIds: Record<string, string> = {};
  const meSearch = (as: TestApi, body: unknown = {}, query = '') =>
    as.post(`/me/datasets/${hidden.id}/records/search${query ? `?${query}` : ''}`, body);
  const notFound = (name: string) => unprocessable(`Question not found filtering by name=${name}, dataset_id=${hidden.id}`);

  beforeAll(async () => {
    hidden = await createSearchDataset(api, p.workspace.id);
    for (const name of ['topics', 'comment']) {
      const res = await p.owner.patch(`/questions/${hidden.questionIds[name]}`, { visible_for_annotators: false });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const q = hidden.questionIds;
    const records = await upsertRecords(api, hidden.id, [
      {
        external_id: 'h1',
        fields: { text: 'first' },
        suggestions: [
          { question_id: q.label, value: 'positive', agent: 'model-a', score: 0.9 },
          { question_id: q.topics, value: ['tech'], agent: 'secret-agent', score: [0.8] },
        ],
        // written by the owner: the annotator's response carries answers to hidden questions
        responses: [
          { user_id: p.annotatorMember.id, status: 'submitted', values: { ...label('positive'), topics: { value: ['tech'] }, comment: { value: 'by an admin' } } },
          { user_id: p.adminMember.id, status: 'draft', values: { ...label('negative'), topics: { value: ['sports'] } } },
        ],
      },
      { external_id: 'h2', fields: { text: 'second' }, suggestions: [{ question_id: q.topics, value: ['sports'], score: [0.2] }] },
    ]);
    for (const record of records) hiddenIds[record.external_id] = record.id;
  });

  it('/me: an annotator gets neither suggestions nor response values of hidden questions', async () => {
    const res = await meSearch(p.annotatorMember.api, {}, 'include=responses,suggestions');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [h1, h2] = res.body.items.map((item: { record: any }) => item.record);
    expect(h1.suggestions.map((s: any) => s.question_id)).toEqual([hidden.questionIds.label]);
    expect(h1.responses).toHaveLength(1);
    expect(h1.responses[0].values).toEqual(label('positive'));
    expect(h2.suggestions).toEqual([]);
    expect(JSON.stringify(res.body)).not.toContain('secret-agent');
  });

  it('owners and admins see every suggestion and response value, on /me and on the admin route', async () => {
    const admin = await meSearch(p.adminMember.api, {}, 'include=responses,suggestions');
    const adminH1 = admin.body.items[0].record;
    expect(adminH1.suggestions).toHaveLength(2);
    expect(adminH1.responses[0].values).toEqual({ ...label('negative'), topics: { value: ['sports'] } });
    const ownerMe = await meSearch(p.owner, {}, 'include=suggestions');
    expect(ownerMe.body.items[1].record.suggestions).toHaveLength(1);
    const all = await p.owner.post(`/datasets/${hidden.id}/records/search?include=responses,suggestions`, {});
    const ownerH1 = all.body.items[0].record;
    expect(ownerH1.suggestions).toHaveLength(2);
    const annotatorResponse = ownerH1.responses.find((r: any) => r.user_id === p.annotatorMember.id);
    expect(Object.keys(annotatorResponse.values).sort()).toEqual(['comment', 'label', 'topics']);
  });

  it('/me: filters and sorts naming a hidden question answer exactly as for an unknown question', async () => {
    const annotator = p.annotatorMember.api;
    const bodies = (name: string) => [
      terms({ entity: 'suggestion', question: name }, ['tech']),
      range({ entity: 'suggestion', question: name, property: 'score' }, { ge: 0.5 }),
      terms({ entity: 'suggestion', question: name, property: 'agent' }, ['secret-agent']),
      terms({ entity: 'response', question: name }, ['tech']),
      { sort: [{ scope: { entity: 'suggestion', question: name, property: 'score' }, order: 'desc' }] },
      { sort: [{ scope: { entity: 'response', question: name } }] },
    ];
    const hiddenBodies = bodies('topics');
    const unknownBodies = bodies('nope');
    for (let i = 0; i < hiddenBodies.length; i++) {
      const res = await meSearch(annotator, hiddenBodies[i]);
      const unknown = await meSearch(annotator, unknownBodies[i]);
      expect(res.status, JSON.stringify(hiddenBodies[i])).toBe(422);
      expect(res.body).toEqual(notFound('topics'));
      expect(unknown.status).toBe(422);
      expect(unknown.body).toEqual(notFound('nope'));
    }
    // the visible questions still filter and sort for the annotator
    expect((await meSearch(annotator, terms({ entity: 'suggestion', question: 'label' }, ['positive']))).body.total).toBe(1);
    expect((await meSearch(annotator, { sort: [{ scope: { entity: 'response', question: 'label' } }] })).status).toBe(200);
    // admins and owners filter and sort by the hidden question
    for (const client of [p.adminMember.api, p.owner]) {
      for (const body of hiddenBodies) expect((await meSearch(client, body)).status, JSON.stringify(body)).toBe(200);
    }
    const byAdmin = await meSearch(p.adminMember.api, terms({ entity: 'suggestion', question: 'topics' }, ['sports']));
    expect(byAdmin.body.items.map((item: any) => item.record.external_id)).toEqual(['h2']);
  });

  it('shown again, the question is back for annotators', async () => {
    const comment = hidden.questionIds.comment;
    expect((await p.owner.patch(`/questions/${comment}`, { visible_for_annotators: true })).status).toBe(200);
    try {
      const res = await meSearch(p.annotatorMember.api, terms({ entity: 'response', question: 'comment' }, ['by an admin']), 'include=responses');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.items[0].record.responses[0].values).toEqual({ ...label('positive'), comment: { value: 'by an admin' } });
    } finally {
      await p.owner.patch(`/questions/${comment}`, { visible_for_annotators: false });
    }
  });
});

describe('vector similarity', () => {
  const vector = (extra: Record<string, unknown>) => ({ query: { vector: { name: 'emb', record_id: null, value: null, ...extra } } });

  it('by value: cosine order, query_score = (1 + cos) / 2, records without the vector left out', async () => {
    const res = await search({ body: vector({ value: [1, 0, 0], order: 'most_similar' }) });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: any) => i.record.external_id)).toEqual(['r1', 'r2', 'r3', 'r4', 'r6']);
    expect(res.body.total).toBe(5);
    expect(res.body.items[0].query_score).toBeCloseTo(1, 5);
    expect(res.body.items[2].query_score).toBeCloseTo(0.5, 5);
    expect(res.body.items[4].query_score).toBeCloseTo(0, 5);
  });

  it('by record: that record excluded; least_similar reverses', async () => {
    expect(await hits({ body: vector({ record_id: ids.r1 }) })).toEqual(['r2', 'r3', 'r4', 'r6']);
    expect((await hits({ body: vector({ record_id: ids.r1, order: 'least_similar' }) }))[0]).toBe('r6');
  });

  it('caps at offset + limit (max 1000) and pages inside the window', async () => {
    const res = await search({ body: vector({ value: [1, 0, 0] }), query: 'limit=2&offset=1' });
    expect(res.body.items.map((i: any) => i.record.external_id)).toEqual(['r2', 'r3']);
    expect(res.body.total).toBe(3);
    expect((await search({ body: vector({ value: [1, 0, 0] }), query: 'limit=1000&offset=1000' })).body).toEqual({ items: [], total: 0 });
    expect((await search({ body: vector({ value: [1, 0, 0], max_results: 2 }) })).body.total).toBe(5);
  });

  it('text and filters restrict the candidates', async () => {
    expect(await hits({ body: { ...vector({ record_id: ids.r1 }), ...terms({ entity: 'metadata', metadata_property: 'group' }, ['a']) } })).toEqual(['r3', 'r4']);
    expect(await hits({ body: { query: { text: { q: 'fox' }, vector: { name: 'emb', record_id: ids.r1 } } } })).toEqual(['r2']);
    const sorted = { ...vector({ value: [1, 0, 0] }), sort: [{ scope: { entity: 'metadata', metadata_property: 'n' }, order: 'desc' }] };
    expect(await hits({ body: sorted, query: 'limit=3' })).toEqual(['r3', 'r2', 'r1']);
  });

  it('sees vectors written after a previous search', async () => {
    expect(await hits({ body: vector({ value: [0, 0, 1] }), query: 'limit=1' })).toEqual(['r4']);
    await upsertRecords(api, ds.id, [{ external_id: 'r3', vectors: { emb: [0, 0.1, 1] } }]);
    expect(await hits({ body: vector({ value: [0, 0, 1] }), query: 'limit=2' })).toEqual(['r4', 'r3']);
    await upsertRecords(api, ds.id, [{ external_id: 'r3', vectors: { emb: [0, 1, 0] } }]);
  });

  it('a set loaded in several pages scores every vector; equal scores keep insertion order', async () => {
    const big = await createSearchDataset(api, p.workspace.id);
    // 5,000 vectors: more than two pages of the cache load. Every 7th record repeats the same
    // direction, so many exact ties; the rest turn away from the query a little more each time.
    const items = Array.from({ length: 5000 }, (_, i) => ({
      external_id: `v${i}`,
      fields: { text: `vector ${i}`, context: 'c' },
      vectors: { emb: i % 7 === 0 ? [2, 0, 0] : [1, 0.001 * (i + 1), 0] },
    }));
    for (let start = 0; start < items.length; start += 500) await upsertRecords(api, big.id, items.slice(start, start + 500));
    const res = await p.owner.post(`/datasets/${big.id}/records/search?limit=1000`, { query: { vector: { name: 'emb', value: [1, 0, 0] } } });
    expect(res.status).toBe(200);
    const got = res.body.items.map((i: any) => i.record.external_id);
    const ties = items.filter((_, i) => i % 7 === 0).map((item) => item.external_id); // 715 exact matches, in insertion order
    const rest = items.filter((_, i) => i % 7 !== 0).map((item) => item.external_id); // closest first = insertion order
    expect(got).toEqual([...ties, ...rest].slice(0, 1000));
    expect(res.body.total).toBe(1000);
    const last = await p.owner.post(`/datasets/${big.id}/records/search?limit=1`, { query: { vector: { name: 'emb', value: [1, 0, 0], order: 'least_similar' } } });
    expect(last.body.items[0].record.external_id).toBe('v4999');
    await p.owner.delete(`/datasets/${big.id}`);
  });

  it('the quantised scan still returns the exact top k, alone and under a filter', async () => {
    const big = await createSearchDataset(api, p.workspace.id);
    // Seeded points around a few centres, so many scores lie closer together than int8 codes can tell apart.
    const random = seededRandom(7);
    const centres = [[1, 0.2, 0.1], [0.1, 1, 0.3], [-0.5, 0.2, 1]];
    const items = Array.from({ length: 3000 }, (_, i) => ({
      external_id: `q${i}`,
      fields: { text: `point ${i}`, context: 'c' },
      metadata: { n: i % 10 },
      vectors: { emb: centres[i % 3].map((c) => c + (random() - 0.5) * 0.05) },
    }));
    for (let start = 0; start < items.length; start += 500) await upsertRecords(api, big.id, items.slice(start, start + 500));
    const query = [0.97, 0.22, 0.12];
    const cosine = (v: number[]) => {
      const f = Float32Array.from(v);
      const dot = f.reduce((sum, x, i) => sum + x * query[i], 0);
      return dot / Math.hypot(...f) / Math.hypot(...query);
    };
    const expected = (keep: (i: number) => boolean) =>
      items
        .map((item, i) => ({ id: item.external_id, i, score: cosine(item.vectors.emb) }))
        .filter(({ i }) => keep(i))
        .sort((a, b) => b.score - a.score || a.i - b.i)
        .slice(0, 100);
    const run = async (body: Record<string, unknown>) => {
      const res = await p.owner.post(`/datasets/${big.id}/records/search?limit=100`, { query: { vector: { name: 'emb', value: query } }, ...body });
      expect(res.status).toBe(200);
      return res.body.items.map((item: any) => ({ id: item.record.external_id, score: item.query_score }));
    };
    for (const [got, want] of [
      [await run({}), expected(() => true)],
      [await run(range({ entity: 'metadata', metadata_property: 'n' }, { ge: 3, le: 4 })), expected((i) => i % 10 === 3 || i % 10 === 4)],
    ] as const) {
      expect(got.map((hit: { id: string }) => hit.id)).toEqual(want.map((hit) => hit.id));
      got.forEach((hit: { score: number }, i: number) => expect(hit.score).toBeCloseTo((1 + want[i].score) / 2, 6));
    }
    await p.owner.delete(`/datasets/${big.id}`);
  });

  it('errors: record_id xor value, unknown vector, foreign record, missing vector', async () => {
    const neither = await search({ body: vector({}) });
    expect(neither.status).toBe(422);
    expect(neither.body.detail.params.errors[0].msg).toBe("Value error, Either 'record_id' or 'value' must be provided");
    expect((await search({ body: vector({ record_id: ids.r1, value: [1, 0, 0] }) })).status).toBe(422);
    const unknown = await search({ body: { query: { vector: { name: 'nope', value: [1, 0, 0] } } } });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual(unprocessable(`Vector \`nope\` not found in dataset \`${ds.id}\`.`));
    const foreign = '00000000-0000-4000-8000-000000000000';
    const notFound = await search({ body: vector({ record_id: foreign }) });
    expect(notFound.status).toBe(422);
    expect(notFound.body).toEqual(unprocessable(`Record with id \`${foreign}\` not found in dataset \`${ds.id}\`.`));
    const missing = await search({ body: vector({ record_id: ids.r5 }) });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ code: 'missing_vector', message: `Record \`${ids.r5}\` does not have a vector for vector settings \`emb\`` });
    expect((await search({ body: vector({ value: [1, 0] }) })).status).toBe(422);
  });
});
