import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MIN_SUBMITTED, MAX_PAGE_OFFSET, MAX_VECTOR_DIMENSIONS } from '@scholia/shared/contract';
import { MAX_JSON_DEPTH } from '../../src/lib/json-input.js';
import { TestApi } from '../api-client.js';
import { OWNER, startTestServer, type TestServer } from '../test-server.js';
import { createRecord, seedPublished } from './harness.js';

/**
 * Hostile values the edge must refuse with a 422 and a clear detail (never a 5xx), and names
 * with characters that must be quoted, not misread, in the JSON paths of both SQL dialects.
 */
let server: TestServer;
let owner: TestApi;
let datasetId: string;
let recordId: string;

beforeAll(async () => {
  server = await startTestServer();
  owner = new TestApi(server.url, { apiKey: OWNER.apiKey });
  const ws = (await owner.post('/workspaces', { name: 'hostile-ws' })).body.id;
  datasetId = (await seedPublished(server, ws)).id;
  recordId = await createRecord(owner, datasetId);
});
afterAll(async () => server?.close());

/** Sends a raw JSON text (numbers such as 1e400 that JSON.stringify cannot write). */
async function sendRaw(method: 'POST' | 'PUT', path: string, text: string) {
  const res = await server.app.inject({
    method,
    url: `/api/v1${path}`,
    headers: { 'x-argilla-api-key': OWNER.apiKey, 'content-type': 'application/json' },
    payload: text,
  });
  return { status: res.statusCode, body: res.json() };
}

/** The first validation issue of a 422 body. */
const issueOf = (body: any) => body.detail.params.errors[0];

const nestedText = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const nested = (levels: number) => JSON.parse(nestedText(levels));

describe('numbers out of range are refused', () => {
  it.each([
    ['9223372036854775808', 'less_than_equal'],
    ['100000000000000000000', 'less_than_equal'],
    [String(MAX_PAGE_OFFSET + 1), 'less_than_equal'],
    ['-1', 'greater_than_equal'],
    ['1.5', 'integer_type'],
    ['1e400', 'less_than_equal'],
  ])('offset=%s on every paged route', async (offset, type) => {
    for (const res of [
      await owner.get(`/datasets/${datasetId}/records?offset=${offset}`),
      await owner.post(`/datasets/${datasetId}/records/search?offset=${offset}`, {}),
      await owner.post(`/me/datasets/${datasetId}/records/search?offset=${offset}`, {}),
    ]) {
      expect(res.status).toBe(422);
      expect(issueOf(res.body)).toMatchObject({ type, loc: ['query', 'offset'] });
    }
  });

  it('the largest offset is accepted and pages past the end', async () => {
    const res = await owner.post(`/datasets/${datasetId}/records/search?offset=${MAX_PAGE_OFFSET}`, {});
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([]);
  });

  it('min_submitted is 1..MAX_MIN_SUBMITTED', async () => {
    for (const value of [2 ** 64, MAX_MIN_SUBMITTED + 1, 0]) {
      const res = await owner.patch(`/datasets/${datasetId}`, { distribution: { strategy: 'overlap', min_submitted: value } });
      expect(res.status).toBe(422);
      expect(issueOf(res.body).loc).toEqual(['body', 'distribution', 'min_submitted']);
    }
    const res = await owner.patch(`/datasets/${datasetId}`, { distribution: { strategy: 'overlap', min_submitted: MAX_MIN_SUBMITTED } });
    expect(res.status).toBe(200);
    await owner.patch(`/datasets/${datasetId}`, { distribution: { strategy: 'overlap', min_submitted: 1 } });
  });

  it('vector dimensions are 1..MAX_VECTOR_DIMENSIONS, and so are vector values', async () => {
    for (const dimensions of [2 ** 40, MAX_VECTOR_DIMENSIONS + 1, 0]) {
      const res = await owner.post(`/datasets/${datasetId}/vectors-settings`, { name: 'wide', title: 'wide', dimensions });
      expect(res.status).toBe(422);
      expect(issueOf(res.body).loc).toEqual(['body', 'dimensions']);
    }
    const value = Array.from({ length: MAX_VECTOR_DIMENSIONS + 1 }, () => 0.5);
    const search = await owner.post(`/datasets/${datasetId}/records/search`, { query: { vector: { name: 'emb', value } } });
    expect(search.status).toBe(422);
    const write = await owner.put(`/datasets/${datasetId}/records/bulk`, { items: [{ fields: { text: 'v' }, vectors: { emb: value } }] });
    expect(write.status).toBe(422);
  });

  it('a vector component of 1e400 (Infinity once parsed) is refused, not stored as null', async () => {
    const res = await sendRaw('PUT', `/datasets/${datasetId}/records/bulk`, '{"items":[{"fields":{"text":"v"},"vectors":{"emb":[1e400,0,0]}}]}');
    expect(res.status).toBe(422);
    expect(issueOf(res.body)).toEqual({ type: 'finite_number', loc: ['body', 'items', 0, 'vectors', 'emb', 0], msg: 'Input should be a finite number' });
    const search = await sendRaw('POST', `/datasets/${datasetId}/records/search`, '{"query":{"vector":{"name":"emb","value":[-1e999,0,0]}}}');
    expect(search.status).toBe(422);
  });
});

describe('JSON bodies nested too deep are refused at the edge', () => {
  it('record metadata nested past the limit', async () => {
    const res = await sendRaw('PUT', `/datasets/${datasetId}/records/bulk`, `{"items":[{"fields":{"text":"x"},"metadata":{"deep":${nestedText(1_500)}}}]}`);
    expect(res.status).toBe(422);
    const issue = issueOf(res.body);
    expect(issue.msg).toBe(`Value error, JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    expect(issue.loc.slice(0, 6)).toEqual(['body', 'items', 0, 'metadata', 'deep', 'a']);
  });

  it('a body nested thousands of levels on any route', async () => {
    for (const text of ['['.repeat(20_000) + ']'.repeat(20_000), nestedText(5_000)]) {
      const res = await sendRaw('POST', `/datasets/${datasetId}/records/search`, text);
      expect(res.status).toBe(422);
      expect(issueOf(res.body).type).toBe('value_error');
    }
  });

  it('metadata as deep as the limit allows is stored and read back', async () => {
    const metadata = { deep: nested(MAX_JSON_DEPTH - 5) };
    const res = await owner.put(`/datasets/${datasetId}/records/bulk`, { items: [{ fields: { text: 'deep' }, metadata }] });
    expect(res.status).toBe(200);
    expect((await owner.get(`/records/${res.body.items[0].id}`)).body.metadata).toEqual(metadata);
  });
});

describe('object keys and names', () => {
  it.each([
    ['metadata', { items: [{ fields: { text: 'x' }, metadata: { 'a\u0000b': 1 } }] }, ['body', 'items', 0, 'metadata', 'a\u0000b']],
    ['fields', { items: [{ fields: { text: 'x', 'f\u0000': 'y' } }] }, ['body', 'items', 0, 'fields', 'f\u0000']],
  ])('a NUL in a %s key is refused', async (_what, body, loc) => {
    const res = await owner.put(`/datasets/${datasetId}/records/bulk`, body);
    expect(res.status).toBe(422);
    expect(issueOf(res.body)).toEqual({ type: 'value_error', loc, msg: 'Value error, keys cannot contain the NUL character (\\u0000)' });
  });

  it.each([
    ['a field', { items: [{ fields: { text: 'a\u0000b' } }] }, ['body', 'items', 0, 'fields', 'text']],
    ['an external id', { items: [{ external_id: 'nul\u0000id', fields: { text: 'x' } }] }, ['body', 'items', 0, 'external_id']],
    ['a metadata value', { items: [{ fields: { text: 'x' }, metadata: { tag: '\u0000' } }] }, ['body', 'items', 0, 'metadata', 'tag']],
  ])('a NUL in the text of %s is refused on every database, nothing written', async (_what, body, loc) => {
    const before = (await owner.post(`/datasets/${datasetId}/records/search`, {})).body.total;
    const res = await owner.put(`/datasets/${datasetId}/records/bulk`, body);
    expect(res.status).toBe(422);
    expect(issueOf(res.body)).toEqual({ type: 'value_error', loc, msg: 'Value error, text cannot contain the NUL character (\\u0000)' });
    expect((await owner.post(`/datasets/${datasetId}/records/search`, {})).body.total).toBe(before);
  });

  it('a NUL in a search text is refused', async () => {
    const res = await owner.post(`/datasets/${datasetId}/records/search`, { query: { text: { q: 'a\u0000' } } });
    expect(res.status).toBe(422);
    expect(issueOf(res.body).loc).toEqual(['body', 'query', 'text', 'q']);
  });

  it('text with a lone surrogate is refused, as a value and as a key', async () => {
    for (const text of ['{"items":[{"fields":{"text":"a\\ud800b"}}]}', '{"items":[{"fields":{"text":"x"},"metadata":{"\\udc00":1}}]}']) {
      const res = await sendRaw('PUT', `/datasets/${datasetId}/records/bulk`, text);
      expect(res.status).toBe(422);
      expect(issueOf(res.body).type).toBe('string_unicode');
    }
    const paired = await owner.put(`/datasets/${datasetId}/records/bulk`, { items: [{ fields: { text: '🙂 \ud83d\ude42' } }] });
    expect(paired.status).toBe(200);
  });

  it('a NUL in a response value key is refused', async () => {
    const res = await owner.post(`/records/${recordId}/responses`, { status: 'draft', values: { label: { value: 'positive', 'x\u0000': 1 } } });
    expect(res.status).toBe(422);
    expect(issueOf(res.body).loc).toEqual(['body', 'values', 'label', 'x\u0000']);
  });

  it.each(['fields', 'questions', 'metadata-properties', 'vectors-settings'])('a NUL in a name of %s is refused', async (kind) => {
    const settings: Record<string, unknown> = {
      fields: { type: 'text' },
      questions: { type: 'text' },
      'metadata-properties': { type: 'integer' },
    };
    const body = { name: 'n\u0000', title: 't', ...(kind === 'vectors-settings' ? { dimensions: 3 } : { settings: settings[kind] }) };
    const res = await owner.post(`/datasets/${datasetId}/${kind}`, body);
    expect(res.status).toBe(422);
    expect(issueOf(res.body)).toMatchObject({ type: 'value_error', loc: ['body', 'name'] });
  });

  it.each(['quote"d', 'back\\slash', 'both\\"', 'dot.ted', 'new\nline'])('a metadata property named %j filters and sorts on its own values', async (name) => {
    const created = await owner.post(`/datasets/${datasetId}/metadata-properties`, { name, title: 't', settings: { type: 'integer' } });
    expect(created.status).toBe(201);
    const items = [1, 2, 3].map((n) => ({ fields: { text: `${name} ${n}` }, metadata: { [name]: n, [`${name}x`]: 10 - n, x: 100 } }));
    expect((await owner.put(`/datasets/${datasetId}/records/bulk`, { items })).status).toBe(200);
    const scope = { entity: 'metadata', metadata_property: name };
    const texts = (res: { body: any }) => res.body.items.map((i: any) => i.record.fields.text);

    const filtered = await owner.post(`/datasets/${datasetId}/records/search`, { filters: { and: [{ type: 'range', scope, ge: 2, le: 3 }] } });
    expect(filtered.status).toBe(200);
    expect(texts(filtered).sort()).toEqual([`${name} 2`, `${name} 3`]);

    const sorted = await owner.post(`/datasets/${datasetId}/records/search`, {
      filters: { and: [{ type: 'range', scope, ge: 1 }] },
      sort: [{ scope, order: 'desc' }],
    });
    expect(texts(sorted)).toEqual([3, 2, 1].map((n) => `${name} ${n}`));

    const metrics = await owner.get(`/metadata-properties/${created.body.id}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatchObject({ min: 1, max: 3 });
  });
});
