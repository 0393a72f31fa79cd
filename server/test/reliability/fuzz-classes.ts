import type { BodyEdit, FuzzCase } from './fuzz-cases.js';
import { ROUTE_EXPECTATIONS } from './route-expectations.js';
import type { World } from './harness.js';

/**
 * The fuzz suite's class matrix: every route crossed with every member of the hostile-input
 * classes (huge, negative, fractional and non-finite numbers; nesting past the body limit; NUL,
 * backslash and quote in keys; wrong types; huge strings; unicode edge cases), put in the place of
 * each value of the route's valid request in turn. Deterministic, so a failure names its case.
 */

const deep = (levels: number, open: string, close: string, inner = '1') => open.repeat(levels) + inner + close.repeat(levels);

/** Numbers as query text: past 64 bits, negative, fractional, non-finite, not decimal. */
export const HOSTILE_QUERY_NUMBERS = [
  '9223372036854775808',
  '18446744073709551616',
  '-9223372036854775809',
  '99999999999999999999999',
  '2147483648',
  '1e400',
  '-1',
  '-0',
  '1.5',
  'NaN',
  'Infinity',
  '0x10',
  '1e3',
  '',
  '%00',
  '١٢',
  '4294967296',
  '1e308',
  '5e-324',
  '0.0',
  '+1',
  ' 1',
  '1 ',
  '0b1',
];

/** JSON texts put in place of one value of a valid body. */
export const HOSTILE_VALUES = [
  'null',
  'true',
  '0',
  '-1',
  '1.5',
  '1e400',
  '-1e400',
  '1e-400',
  '9223372036854775808',
  '18446744073709551616',
  '-9223372036854775809',
  '123456789012345678901234567890',
  '2147483648',
  '-2147483649',
  '4294967296',
  '1e308',
  '-1e308',
  '5e-324',
  '0.1',
  '-0.0',
  '1E2',
  '1.0',
  '""',
  '" "',
  JSON.stringify('x'.repeat(100_001)),
  '"\\u0000"',
  '"\\ud800"',
  '"a\\\\b"',
  '"\\"quoted\\""',
  JSON.stringify('👩‍👩‍👧‍👦🏳️‍🌈'),
  JSON.stringify('\u202e\u200b\ufeff'),
  JSON.stringify('e\u0301\u0301'),
  JSON.stringify('é'.repeat(70_000)),
  JSON.stringify('𝔘𝔫𝔦𝔠𝔬𝔡𝔢'),
  '"\\t\\r\\n"',
  '"\u2028\u2029"',
  '"\uffff\ufffe"',
  '"%s%n"',
  '"${7*7}"',
  '"<script>alert(1)</script>"',
  '"\' OR 1=1 --"',
  '"null"',
  '"true"',
  '"0"',
  '"-1"',
  '[]',
  '{}',
  '[null]',
  '[1e400]',
  '[[1,2],[3]]',
  '[{}]',
  '{"":1}',
  '{"a":{"b":{}}}',
  deep(99, '[', ']'),
  deep(101, '[', ']'),
  deep(1_001, '{"a":', '}'),
  deep(5_000, '[', ']'),
  '{"a\\u0000b":1}',
  '{"a\\\\b":1}',
  '{"a\\"b":1}',
  '{"__proto__":{"polluted":true}}',
];

/** Keys added to each object of a valid body. */
export const HOSTILE_KEYS = ['a\u0000b', '\u0000', 'a\\b', 'a"b', '__proto__', 'constructor', '\ud800', '', 'k'.repeat(10_000)];

const MARK = '\u0001hostile\u0001';

type Step = string | number;

/** Every node of a JSON value as its path of keys and indexes, the root first. */
function nodePaths(value: unknown, path: Step[] = []): { path: Step[]; isObject: boolean }[] {
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  const here = [{ path, isObject }];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, i) => nodePaths(item, [...path, i]))];
  if (isObject) return [...here, ...Object.entries(value as object).flatMap(([key, item]) => nodePaths(item, [...path, key]))];
  return here;
}

/**
 * The body with `text` at `path` (or, with `key`, added under that key of the object at `path`).
 * A path the fresh valid body lacks (its shape can vary) puts the value at the root.
 */
function placeText(valid: unknown, path: Step[], text: string, key?: string): string {
  const root = { value: structuredClone(valid) as unknown };
  let parent: Record<Step, unknown> = root as Record<Step, unknown>;
  let step: Step = 'value';
  for (const next of path) {
    const node = parent[step];
    if (typeof node !== 'object' || node === null || !(next in node)) return text;
    parent = node as Record<Step, unknown>;
    step = next;
  }
  if (key === undefined) parent[step] = MARK;
  else {
    const node = parent[step];
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return text;
    (node as Record<string, unknown>)[key] = MARK;
  }
  return JSON.stringify(root.value).replace(JSON.stringify(MARK), text);
}

/**
 * Routes whose valid request or accepted call hashes a password (a user is made or signs in):
 * a few hundred ms each, so they get only root-level edits, one value in three.
 */
const PASSWORD_HASHING_ROUTES = new Set([
  'POST /api/v1/token',
  'POST /api/v1/users',
  'PATCH /api/v1/users/:user_id',
  'PUT /api/v1/me/password',
  'POST /api/v1/workspaces/:workspace_id/users',
]);

/** Routes that take `offset`/`limit`, besides every GET. */
const PAGED_POST_ROUTES = new Set(['POST /api/v1/datasets/:dataset_id/records/search', 'POST /api/v1/me/datasets/:dataset_id/records/search']);

const show = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…(${text.length})` : text);

function edits(valid: unknown, rootOnly: boolean): BodyEdit[] {
  const out: BodyEdit[] = [];
  for (const { path, isObject } of rootOnly ? [{ path: [], isObject: false }] : nodePaths(valid)) {
    const at = `/${path.join('/')}`;
    for (const text of HOSTILE_VALUES) out.push({ label: `${at} = ${show(text)}`, apply: (v) => placeText(v, path, text) });
    if (!isObject) continue;
    for (const key of HOSTILE_KEYS) {
      out.push({ label: `${at} + key ${JSON.stringify(show(key))}`, apply: (v) => placeText(v, path, '1', key) });
    }
  }
  return out;
}

/** The class matrix's cases for `routes`, against the shapes of their valid requests in `world`. */
export async function classCases(world: World, routes: string[]): Promise<FuzzCase[]> {
  const base = { paramValue: '', body: null, raw: { text: '', contentType: undefined }, principal: 'owner' as const };
  const cases: FuzzCase[] = [];
  for (const route of routes) {
    const [method] = route.split(' ');
    if (method === 'GET' || PAGED_POST_ROUTES.has(route)) {
      for (const param of ['offset', 'limit']) {
        for (const value of HOSTILE_QUERY_NUMBERS) cases.push({ ...base, route, kind: 'query', query: [[param, value]] });
      }
    }
    // A DELETE ignores bodies and consumes a fresh target per call: its JSON edge is the same as every other route's.
    const expectation = ROUTE_EXPECTATIONS[route];
    if (method === 'GET' || method === 'DELETE' || !expectation) continue;
    const valid = await expectation.request(world, false);
    if (valid.form !== undefined) continue;
    const costly = PASSWORD_HASHING_ROUTES.has(route);
    const routeEdits = edits(valid.body ?? {}, costly).filter((_, i) => !costly || i % 3 === 0);
    for (const edit of routeEdits) cases.push({ ...base, route, kind: 'edited-body', query: [], edit });
  }
  return cases;
}
