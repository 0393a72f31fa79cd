import fc from 'fast-check';
import { isContractError, type World } from './harness.js';
import { ROUTE_EXPECTATIONS } from './route-expectations.js';

/**
 * Hostile requests for every /api/v1 route (fast-check arbitraries) and the invariant each must
 * keep: no 5xx, a contract §5 error body for every 4xx, and no write when the request is refused.
 * Shared by reliability/fuzz.test.ts (bounded) and bench/reliability.ts (thousands of cases).
 */

export interface FuzzCase {
  route: string;
  /**
   * What is hostile: path params, the query, the JSON body, the raw bytes / content type, or the
   * route's valid body with one edit (`edit`, from the class matrix).
   */
  kind: 'path' | 'query' | 'body' | 'mutated-body' | 'raw' | 'edited-body';
  paramValue: string;
  query: [string, string][];
  body: unknown;
  raw: { text: string | Uint8Array; contentType: string | undefined };
  principal: 'owner' | 'annotatorMember';
  edit?: BodyEdit;
}

/** One edit of a route's valid JSON body, written as JSON text (so it can hold 1e400 or 5,000 levels of nesting). */
export interface BodyEdit {
  label: string;
  apply(valid: unknown): string;
}

export const SQL_AND_FTS = [
  "' OR 1=1 --",
  '"; DROP TABLE records; --',
  "'); DELETE FROM responses; --",
  'text:* OR NEAR(a b, 2)',
  '"unterminated',
  'a AND OR NOT )(',
  '*',
  '^start',
  'col:val',
  'a"b\'c`d',
  '%',
  '_',
  '\\',
  'MATCH',
  '{}[]()',
];
export const UNICODE = [
  '\u0000',
  '\ud800',
  'x\udfffy',
  '\u202e\u202dRTL\u200f',
  'zero\u200bwidth\u200d\ufeff',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'e\u0301\u0301\u0301',
  '\uffff\ufffe',
  'ﷺ',
  '\r\n\t',
];
const BAD_IDS = [
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '123',
  '-1',
  'null',
  'undefined',
  '%2e%2e%2f',
  '..',
  '1 OR 1=1',
  'a'.repeat(5000),
  '{{id}}',
  '__proto__',
];

/** Percent-encodes any string, lone surrogates included (as their WTF-8 bytes, which no UTF-8 decoder accepts). */
export function encodeLoose(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}

/** Path segments sent as they are (already percent-encoded): invalid UTF-8, NUL, encoded slashes. */
const RAW_SEGMENTS = ['%FF%FE', '%ED%A0%80', '%00', '%2F..%2F..%2Fetc', '%', '%zz', '..%2f', '%C0%AF'];

const hostileString = fc.oneof(
  fc.constantFrom(...SQL_AND_FTS, ...UNICODE, ...BAD_IDS, '', ' ', '<script>alert(1)</script>', '${7*7}', 'constructor'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('x'.repeat(10_001), 'é'.repeat(70_000), '🙂'.repeat(3000)),
);

const hostileNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 5e-324, 0.1, 1001, 2 ** 31, 2 ** 53),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const leaf = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));

/** Any JSON value, biased towards wrong types and hostile strings. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(hostileString, fc.constantFrom('items', 'id', 'name', 'values', 'status', 'fields', '__proto__')), tie('value'), {
    maxKeys: 4,
  }),
})).value;

const deep = (n: number, open: string, close: string, inner = '1') => open.repeat(n) + inner + close.repeat(n);

export const RAW_TEXTS: (string | Uint8Array)[] = [
  'NaN',
  '{"items": NaN}',
  '{"name": Infinity, "workspace_id": -Infinity}',
  '{"status": "submitted", "values": {"label": {"value": NaN}}}',
  '{',
  '',
  '   ',
  '[]',
  'null',
  '"str"',
  '12',
  '{"__proto__": {"isAdmin": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '{"a": 1, "a": 2}',
  deep(20_000, '[', ']'),
  deep(5_000, '{"a":', '}'),
  deep(200, '{"items":[', ']}', '{}'),
  '\ufeff{}',
  '{"items": [' + Array.from({ length: 2000 }, () => '{}').join(',') + ']}',
  new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]),
  new Uint8Array([0x00, 0x01, 0x02]),
  '{"n": 1e999999}',
  '{"n": 123456789012345678901234567890}',
  '{"s": "\\ud800"}',
  '{"s": "\\u0000"}',
];
export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'application/json, text/plain',
  undefined,
];

/** Replaces one leaf or adds one key of a valid body with a hostile value. */
function mutate(valid: unknown, seed: { path: number[]; value: unknown; addKey: string | undefined }): unknown {
  const clone = structuredClone(valid) as unknown;
  if (typeof clone !== 'object' || clone === null) return seed.value;
  let node = clone as Record<string, unknown> | unknown[];
  for (let i = 0; i < seed.path.length; i += 1) {
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const key = keys[seed.path[i] % keys.length];
    const child = (node as Record<string, unknown>)[key];
    if (i === seed.path.length - 1 || typeof child !== 'object' || child === null) {
      (node as Record<string, unknown>)[key] = seed.value;
      return clone;
    }
    node = child as Record<string, unknown>;
  }
  (node as Record<string, unknown>)[seed.addKey ?? 'extra'] = seed.value;
  return clone;
}

export function fuzzCaseArbitrary(routes: string[]): fc.Arbitrary<FuzzCase> {
  return fc.record({
    route: fc.constantFrom(...routes),
    kind: fc.constantFrom<FuzzCase['kind']>('path', 'query', 'body', 'mutated-body', 'mutated-body', 'raw'),
    paramValue: fc.oneof(fc.constantFrom(...BAD_IDS), hostileString, fc.constantFrom(...RAW_SEGMENTS).map((raw) => `raw:${raw}`)),
    query: fc.array(
      fc.tuple(fc.oneof(fc.constantFrom('limit', 'offset', 'include', 'ids', 'workspace_id', 'name', 'status', 'q', 'sort', 'code', 'state'), hostileString), fc.oneof(hostileString, hostileNumber.map(String))),
      { minLength: 1, maxLength: 4 },
    ),
    body: fc.oneof(hostileJson, fc.record({ path: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), value: hostileJson, addKey: fc.option(hostileString, { nil: undefined }) })),
    raw: fc.record({ text: fc.constantFrom(...RAW_TEXTS), contentType: fc.constantFrom(...CONTENT_TYPES) }),
    principal: fc.constantFrom<FuzzCase['principal']>('owner', 'owner', 'annotatorMember'),
  });
}

export interface FuzzOutcome {
  status: number;
  /** Why the case broke an invariant, if it did. */
  problem?: string;
}

/** Sends one hostile request and checks the invariants. */
export async function runFuzzCase(world: World, fuzz: FuzzCase): Promise<FuzzOutcome> {
  const [method, pattern] = fuzz.route.split(' ');
  const expectation = ROUTE_EXPECTATIONS[fuzz.route];
  // DELETE routes get a fresh target, so fuzzing them does not empty the world the other cases use.
  const valid = expectation ? await expectation.request(world, method === 'DELETE') : { path: pattern.replace('/api/v1', '') };
  let path = valid.path;
  const headers: Record<string, string> = {};
  const client = world.clients[fuzz.principal];
  if (client.credentials && 'apiKey' in client.credentials) headers['X-Argilla-Api-Key'] = client.credentials.apiKey;
  let body: string | Uint8Array | undefined = valid.body === undefined ? undefined : JSON.stringify(valid.body);
  if (valid.form !== undefined) {
    body = valid.form;
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  } else if (body !== undefined) headers['Content-Type'] = 'application/json';

  switch (fuzz.kind) {
    case 'path': {
      if (!pattern.includes(':')) return runFuzzCase(world, { ...fuzz, kind: 'query' });
      const pathOnly = pattern.replace('/api/v1', '');
      let replaced = false;
      path = pathOnly.replace(/:[a-z_]+/g, (m) => {
        // Replace the first param; keep the others valid where the valid request had them.
        if (replaced) return m;
        replaced = true;
        return fuzz.paramValue.startsWith('raw:') ? fuzz.paramValue.slice(4) : encodeLoose(fuzz.paramValue);
      });
      if (path.includes(':')) path = path.replace(/:[a-z_]+/g, world.dataset.id);
      break;
    }
    case 'query': {
      const query = fuzz.query.map(([k, v]) => `${encodeLoose(k)}=${encodeLoose(v)}`).join('&');
      path = `${path}${path.includes('?') ? '&' : '?'}${query}`;
      break;
    }
    case 'body':
    case 'mutated-body': {
      if (method === 'GET' || method === 'DELETE') return runFuzzCase(world, { ...fuzz, kind: 'query' });
      const seed = fuzz.body as { path: number[]; value: unknown; addKey: string | undefined };
      const isSeed = typeof seed === 'object' && seed !== null && Array.isArray((seed as { path?: unknown }).path) && 'value' in seed;
      const value = fuzz.kind === 'mutated-body' && isSeed && valid.body !== undefined ? mutate(valid.body, seed) : isSeed ? seed.value : fuzz.body;
      body = JSON.stringify(value) ?? 'null';
      headers['Content-Type'] = 'application/json';
      break;
    }
    case 'edited-body': {
      body = fuzz.edit!.apply(valid.body ?? {});
      headers['Content-Type'] = 'application/json';
      break;
    }
    case 'raw': {
      if (method === 'GET') return runFuzzCase(world, { ...fuzz, kind: 'query' });
      body = fuzz.raw.text;
      delete headers['Content-Type'];
      if (fuzz.raw.contentType) headers['Content-Type'] = fuzz.raw.contentType;
      break;
    }
  }

  // Login attempts are rate-limited; the fuzzer must not lock the owner out of /token for the rest of the run.
  if (fuzz.route === 'POST /api/v1/token' && typeof body === 'string') body = body.replace(/username=[^&]*/, 'username=fuzz-nobody');
  await world.watch.before();
  let response: Response;
  try {
    response = await fetch(`${world.server.url}/api/v1${path}`, { method, headers, body: method === 'GET' ? undefined : body });
  } catch (error) {
    return { status: 0, problem: `connection failed: ${String(error)}` };
  }
  const text = await response.text();
  const status = response.status;
  // Checked before `after`, whose own writes (restoring credentials) are not the request's.
  const wroteNothing = status < 400 || (await world.watch.unchanged());
  await valid.after?.();
  if (status >= 500) return { status, problem: `5xx: ${text.slice(0, 300)}` };
  if (status >= 400) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    if (!isContractError(status, parsed)) return { status, problem: `not a contract error body: ${text.slice(0, 300)}` };
    if (!wroteNothing) return { status, problem: 'refused request changed the database' };
  }
  return { status };
}

/** A short, printable description of a case for failure messages. */
export function describeCase(fuzz: FuzzCase): string {
  const show = (v: unknown) => {
    const s = typeof v === 'string' ? v : v instanceof Uint8Array ? `bytes(${v.length})` : JSON.stringify(v);
    return (s ?? 'undefined').length > 200 ? `${(s ?? '').slice(0, 200)}…(${(s ?? '').length})` : s;
  };
  const detail = { path: fuzz.paramValue, query: fuzz.query, body: fuzz.body, 'mutated-body': fuzz.body, raw: fuzz.raw, 'edited-body': fuzz.edit?.label }[fuzz.kind];
  return `${fuzz.route} [${fuzz.kind} as ${fuzz.principal}] ${show(detail)}`;
}
