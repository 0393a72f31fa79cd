import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { seedDataset } from '../../../test/dataset-fixtures.js';
import { createPrincipals, type Principals } from '../../../test/fixtures.js';
import { OWNER, startTestServer, type TestServer } from '../../../test/test-server.js';
import { bulkBodyReaderRunning, stopBulkBodyReader } from './bulk-body.js';
import { readBulkBody } from './bulk-body-reader.js';
import { VectorValues } from './vector-values.js';

/**
 * Bulk write bodies are read off the event loop once they are large (bulk-body.ts): what a
 * client sees must not depend on where its body was read, or on the thread failing.
 */
let server: TestServer;
let api: TestApi;
let principals: Principals;

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url).as({ apiKey: OWNER.apiKey });
  principals = await createPrincipals(api);
});
afterAll(() => server.close());

const DIMENSIONS = 64;
const newDataset = () =>
  seedDataset(server.app.database.db, server.app.database.dialect, { workspaceId: principals.workspace.id, vectors: [{ name: 'emb', dimensions: DIMENSIONS }] });


/** A body of `count` records with a vector each, its numbers written in several ways; large enough to be read off the loop. */
function largeBody(count: number, prefix: string): { text: string; vectors: number[][] } {
  const vectors = Array.from({ length: count }, (_, r) => Array.from({ length: DIMENSIONS }, (_, i) => (i % 7 === 0 ? i : ((r + 1) * (i + 1)) / 997 - 0.5)));
  const items = vectors.map((vector, r) => {
    const written = vector.map(writeNumber).join(separator(r));
    return `{"external_id":"${prefix}${r}","fields":{"text":"record ${r}"},"vectors":{"emb":[${written}]}}`;
  });
  return { text: `{"items":[${items.join(',')}]}`, vectors };
}
const separator = (r: number) => (r % 2 === 0 ? ',' : ' , ');
/** The first number as `0` (the refusal tests replace it), then some as exponents. */
const writeNumber = (n: number, i: number) => (i > 0 && i % 5 === 0 ? n.toExponential() : String(n));

describe('bulk write bodies read off the event loop', () => {
  it('stores and answers a large body as sent, the reply repeating each vector text', async () => {
    const dataset = await newDataset();
    const { text, vectors } = largeBody(400, 'big');
    expect(text.length).toBeGreaterThan(64 * 1024);
    await stopBulkBodyReader();
    const reply = await api.sendJsonText('PUT', `/datasets/${dataset.id}/records/bulk`, text);
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    expect(bulkBodyReaderRunning()).toBe(true);
    const items = JSON.parse(reply.text).items as { id: string; vectors: { emb: number[] } }[];
    expect(items.map((item) => item.vectors.emb)).toEqual(vectors);
    // The text the client sent, not the numbers formatted again.
    expect(reply.text).toContain(`"emb":[${vectors[1].map(writeNumber).join(' , ')}]`);
    const stored = await api.get(`/records/${items[123].id}?include=vectors`);
    expect(stored.body.vectors.emb).toEqual(vectors[123]);
  });

  it('starts a new thread for the next large body once its thread has stopped', async () => {
    const dataset = await newDataset();
    await stopBulkBodyReader();
    const { text, vectors } = largeBody(300, 'restart');
    const reply = await api.sendJsonText('POST', `/datasets/${dataset.id}/records/bulk`, text);
    expect(reply.status, reply.text.slice(0, 300)).toBe(201);
    expect(bulkBodyReaderRunning()).toBe(true);
    expect(JSON.parse(reply.text).items.map((item: { vectors: { emb: number[] } }) => item.vectors.emb)).toEqual(vectors);
  });

  it('reads a large body that is mostly text on the event loop', async () => {
    const dataset = await newDataset();
    await stopBulkBodyReader();
    const vector = Array.from({ length: DIMENSIONS }, (_, i) => i / 2);
    const items = Array.from({ length: 400 }, (_, r) => ({
      external_id: `text${r}`,
      fields: { text: `a record that is mostly words, number ${r} `.repeat(12) },
      ...(r % 10 === 0 ? { vectors: { emb: vector } } : {}),
    }));
    const text = JSON.stringify({ items });
    expect(text.length).toBeGreaterThan(64 * 1024);
    const reply = await api.sendJsonText('PUT', `/datasets/${dataset.id}/records/bulk`, text);
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    expect(bulkBodyReaderRunning()).toBe(false);
    expect(JSON.parse(reply.text).items[10].vectors.emb).toEqual(vector);
  });

  it('refuses a large body as the server refuses any body', async () => {
    const dataset = await newDataset();
    const path = `/datasets/${dataset.id}/records/bulk`;
    const { text } = largeBody(300, 'bad');
    const plainRoute = (body: string) => api.sendJsonText('POST', '/workspaces', body);

    // Not JSON, or a `__proto__` key: the answer any route gives.
    for (const [bad, plain] of [
      [text.slice(0, -2), '{"name": "x",'],
      [text.replace('{"external_id":"bad0"', '{"__proto__":{"admin":true},"external_id":"bad0"'), '{"__proto__":{"admin":true},"name":"x"}'],
    ]) {
      const [answer, expected] = [await api.sendJsonText('PUT', path, bad), await plainRoute(plain)];
      expect(expected.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBe(expected.status);
      expect(JSON.parse(answer.text)).toEqual(JSON.parse(expected.text));
    }

    const infinite = await api.sendJsonText('PUT', path, text.replace('"vectors":{"emb":[0,', '"vectors":{"emb":[1e400,'));
    expect(infinite.status).toBe(422);
    expect(infinite.text).toContain('finite');
    expect(JSON.parse(infinite.text).detail.params.errors[0].loc).toEqual(['body', 'items', 0, 'vectors', 'emb', 0]);

    const wrongType = await api.sendJsonText('PUT', path, text.replace('"vectors":{"emb":[0,', '"vectors":{"emb":["0",'));
    expect(wrongType.status).toBe(422);
    expect(JSON.parse(wrongType.text).detail.params.errors[0].loc).toEqual(['body', 'items', 0, 'vectors', 'emb', 0]);

    const tooLong = await api.sendJsonText('PUT', path, text.replace('"vectors":{"emb":[0,', `"vectors":{"emb":[${'0,'.repeat(4096)}`));
    expect(tooLong.status).toBe(422);

    const wrongLength = await api.sendJsonText('PUT', path, text.replace('"vectors":{"emb":[0,', '"vectors":{"emb":[0,0,'));
    expect(wrongLength.status).toBe(422);
    expect(wrongLength.text).toContain(`must have ${DIMENSIONS} elements, got ${DIMENSIONS + 1} elements`);
    expect((await api.get(`/datasets/${dataset.id}/records`)).body.total).toBe(0);
  });
});

describe('readBulkBody', () => {
  it('takes the vectors out into one buffer and leaves the rest of the body as JSON.parse gives it', () => {
    const text = '{"items":[{"fields":{"a":"[1,2]"},"vectors":{"x":[1,2.5],"y":[]}},{"vectors":{"x":[3, -4e-2]},"metadata":{"vectors":{"x":[9]}}},{"vectors":null}]}';
    const read = readBulkBody(text);
    if (read.kind !== 'read') throw new Error(read.kind);
    expect(read.value).toEqual({
      items: [{ fields: { a: '[1,2]' }, vectors: { x: [], y: [] } }, { vectors: { x: [] }, metadata: { vectors: { x: [9] } } }, { vectors: null }],
    });
    expect([...read.numbers]).toEqual([1, 2.5, 3, -0.04]);
    expect(read.packed).toEqual([
      { item: 0, name: 'x', offset: 0, length: 2, text: '[1,2.5]' },
      { item: 1, name: 'x', offset: 2, length: 2, text: '[3, -4e-2]' },
    ]);
  });

  it('leaves what is not a list of finite numbers for the checks after it', () => {
    for (const vector of ['["1",2]', '[1,null]', '[[1],2]', '{"0":1}', '"1,2"']) {
      const read = readBulkBody(`{"items":[{"vectors":{"x":${vector}}}]}`);
      if (read.kind !== 'read') throw new Error(read.kind);
      expect(read.packed).toEqual([]);
      expect(read.value).toEqual(JSON.parse(`{"items":[{"vectors":{"x":${vector}}}]}`));
    }
    expect(readBulkBody('{"items":[{"vectors":{"x":[1e400]}}]}')).toMatchObject({ kind: 'unacceptable', issue: { loc: ['body', 'items', 0, 'vectors', 'x', 0] } });
    expect(readBulkBody('{"items":[').kind).toBe('invalid-json');
    expect(readBulkBody('{"items":[],"__proto__":{}}').kind).toBe('invalid-json');
  });

  it('writes a VectorValues as the array of numbers it holds', () => {
    const buffer = new Float64Array([9, 0.1, -2, 1e-7, 9]).buffer;
    const values = new VectorValues(buffer, 8, 3);
    expect(JSON.stringify({ v: values })).toBe('{"v":[0.1,-2,1e-7]}');
  });
});
