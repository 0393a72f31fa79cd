import { performance } from 'node:perf_hooks';
import { TestApi } from '../api-client.js';
import { OWNER } from '../test-server.js';

/**
 * Search abuse, shared by the reliability test and bench/reliability.ts: a published dataset of
 * ordinary English-like records (plus a few very large ones), annotators who send the most
 * expensive requests they can build, and a well-behaved annotator who reads and searches simply
 * and checks every answer.
 */

export interface AbuseWorld {
  datasetId: string;
  /** Flooding annotators, one client each. */
  abusers: TestApi[];
  /** The well-behaved annotator. */
  reader: TestApi;
  owner: TestApi;
  records: number;
}

const WORDS = (
  'the of and to in is that it was for on are with as his they be at one have this from or had by word but what some we can out other ' +
  'were all there when up use your how said an each she which do their time if will way about many then them write would like so these'
).split(' ');

/** An ordinary record text: ~60 words, Zipf-like, so "the" and "of" are in nearly every record. */
function ordinaryText(seed: number, tag = 'record'): string {
  const words: string[] = [];
  let x = seed * 2654435761;
  for (let i = 0; i < 60; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const rank = Math.floor(WORDS.length * Math.pow((x % 10_000) / 10_000, 2.5));
    words.push(WORDS[rank]);
  }
  return `${words.join(' ')} ${tag}${seed}`;
}

/** A large record: the frequent words over and over (~60 KB). */
function largeText(seed: number): string {
  return `${Array.from({ length: 1_000 }, (_, i) => ordinaryText(seed * 1_000 + i).split(' ').slice(0, 10).join(' ')).join('. ')} large${seed}`;
}

async function ok(res: Promise<{ status: number; body: unknown }>, what: string) {
  const done = await res;
  if (done.status >= 300) throw new Error(`${what}: ${done.status} ${JSON.stringify(done.body).slice(0, 300)}`);
  return done.body as any;
}

/** Builds the dataset (`records` ordinary records and 10 large ones) and `abusers` + 1 annotators. */
export async function seedAbuseWorld(baseUrl: string, options: { records: number; abusers: number; ownerApiKey?: string }): Promise<AbuseWorld> {
  const owner = new TestApi(baseUrl, { apiKey: options.ownerApiKey ?? OWNER.apiKey });
  const suffix = Math.random().toString(36).slice(2, 8);
  const ws = (await ok(owner.post('/workspaces', { name: `abuse-${suffix}` }), 'workspace')).id;
  const ds = (await ok(owner.post('/datasets', { name: `abuse-${suffix}`, workspace_id: ws }), 'dataset')).id;
  await ok(owner.post(`/datasets/${ds}/fields`, { name: 'text', title: 'text', required: true, settings: { type: 'text' } }), 'field');
  await ok(owner.post(`/datasets/${ds}/fields`, { name: 'context', title: 'context', required: false, settings: { type: 'text' } }), 'field');
  await ok(
    owner.post(`/datasets/${ds}/questions`, {
      name: 'label',
      title: 'label',
      required: true,
      settings: { type: 'label_selection', options: ['a', 'b', 'c'].map((v) => ({ value: v, text: v })) },
    }),
    'question',
  );
  for (const [name, type] of [['n', 'integer'], ['score', 'float'], ['group', 'terms']] as const) {
    await ok(owner.post(`/datasets/${ds}/metadata-properties`, { name, title: name, settings: { type }, visible_for_annotators: true }), 'metadata');
  }
  await ok(owner.post(`/datasets/${ds}/vectors-settings`, { name: 'emb', title: 'emb', dimensions: 8 }), 'vectors');
  await ok(owner.put(`/datasets/${ds}/publish`), 'publish');

  const record = (i: number, text: string) => ({
    external_id: `r${i}`,
    fields: { text, context: i % 3 === 0 ? ordinaryText(i, 'context') : undefined },
    metadata: { n: i % 1000, score: (i % 97) / 97, group: `g${i % 20}` },
    vectors: { emb: Array.from({ length: 8 }, (_, k) => Math.sin(i * (k + 1))) },
  });
  for (let start = 0; start < options.records; start += 500) {
    const items = Array.from({ length: Math.min(500, options.records - start) }, (_, k) => record(start + k, ordinaryText(start + k)));
    await ok(owner.put(`/datasets/${ds}/records/bulk`, { items }), 'records');
  }
  await ok(owner.put(`/datasets/${ds}/records/bulk`, { items: Array.from({ length: 10 }, (_, k) => record(options.records + k, largeText(k))) }), 'large records');

  const users: TestApi[] = [];
  for (let i = 0; i <= options.abusers; i++) {
    const user = await ok(owner.post('/users', { username: `abuse-${suffix}-${i}`, first_name: 'A', role: 'annotator', password: 'abuse-password-1' }), 'user');
    await ok(owner.post(`/workspaces/${ws}/users`, { user_id: user.id }), 'member');
    const form = `username=${encodeURIComponent(user.username)}&password=abuse-password-1`;
    const signedIn = await ok(owner.as(undefined).request('POST', '/token', form, { 'Content-Type': 'application/x-www-form-urlencoded' }), 'sign-in');
    users.push(owner.as({ token: signedIn.access_token }));
  }
  return { datasetId: ds, abusers: users.slice(1), reader: users[0], owner, records: options.records + 10 };
}

const repeat = (word: string, times: number) => Array.from({ length: times }, () => word).join(' ');
const FREQUENT = WORDS.slice(0, 60);

export interface AbusiveRequest {
  name: string;
  method: 'POST' | 'GET' | 'PUT';
  /** Path under /api/v1, with `{ds}` for the dataset id. */
  path: string;
  body?: unknown;
}

/** The most expensive requests an annotator can send, each at or past the server's bounds. */
export function abusiveRequests(): AbusiveRequest[] {
  const search = (name: string, body: unknown, query = 'limit=1000'): AbusiveRequest => ({ name, method: 'POST', path: `/me/datasets/{ds}/records/search?${query}`, body });
  const text = (q: string, field?: string) => ({ query: { text: { q, field } } });
  const manyFilters = Array.from({ length: 50 }, (_, i) => ({ type: 'range', scope: { entity: 'metadata', metadata_property: i % 2 ? 'n' : 'score' }, ge: 0, le: 1000 }));
  const manyTerms = { type: 'terms', scope: { entity: 'metadata', metadata_property: 'group' }, values: Array.from({ length: 250 }, (_, i) => `g${i}`) };
  const sorts = Array.from({ length: 10 }, (_, i) => ({ scope: { entity: 'metadata', metadata_property: ['n', 'score', 'group'][i % 3] }, order: i % 2 ? 'asc' : 'desc' }));
  return [
    search('"the" x400', text(repeat('the', 400))),
    search('"the" x5000 (past the length bound)', text(repeat('the', 5000))),
    search('every frequent word', text(FREQUENT.join(' '))),
    search('32 distinct frequent words (the bound)', text(FREQUENT.slice(0, 32).join(' '))),
    search('frequent words, each repeated', text(FREQUENT.slice(0, 30).map((w) => repeat(w, 15)).join(' ').slice(0, 2_000))),
    search('one very long token', text('x'.repeat(1_900))),
    search('prefix-like and syntax input', text(`th* "of" NEAR(the and) text:the OR AND NOT ${repeat('a*', 30)}`)),
    search('field-restricted frequent words', text(FREQUENT.slice(0, 30).join(' '), 'text')),
    search('text + 50 filters + 10 sorts', { ...text(FREQUENT.slice(0, 20).join(' ')), filters: { and: [...manyFilters.slice(0, 49), manyTerms] }, sort: sorts }),
    search('50 filters + 10 sorts, deep page', { filters: { and: [...manyFilters.slice(0, 49), manyTerms] }, sort: sorts }, 'offset=4000&limit=1000'),
    search('similarity + text + filters', {
      query: { vector: { name: 'emb', value: [1, 0, 0, 0, 0, 0, 0, 0], max_results: 1_000_000 }, text: { q: 'the of and' } },
      filters: { and: [manyTerms] },
      sort: sorts.slice(0, 3),
    }),
    search('50 distinct terms filters of 250 values', { filters: { and: Array.from({ length: 50 }, (_, f) => ({ ...manyTerms, values: manyTerms.values.slice(1).map((v) => `${v}-${f}`).concat('g1') })) } }),
    search('50 response filters', {
      filters: { and: Array.from({ length: 50 }, (_, f) => ({ type: 'terms', scope: { entity: 'response', question: 'label' }, values: ['a', 'b', `c${f}`] })) },
    }),
    search('plain page of 1000', {}),
    { name: 'metadata metrics', method: 'GET', path: '/me/datasets/{ds}/metrics' },
  ];
}

/** Sends one request as `client`; status 0 = no answer (connection error or timeout). */
export interface AbusiveAnswer {
  status: number;
  ms: number;
  detail?: unknown;
  /** The `Retry-After` header, if any. */
  retryAfter?: string;
}

export async function sendAbusive(client: TestApi, datasetId: string, request: AbusiveRequest, timeoutMs: number): Promise<AbusiveAnswer> {
  const started = performance.now();
  const path = request.path.replace('{ds}', datasetId);
  const answer = client.request(request.method, path, request.body).then(
    (res) => ({ status: res.status, detail: (res.body as { detail?: unknown } | undefined)?.detail, retryAfter: res.headers.get('retry-after') ?? undefined }),
    () => ({ status: 0, detail: 'connection error' }),
  );
  const timeout = new Promise<{ status: number; detail: unknown }>((resolve) => setTimeout(() => resolve({ status: 0, detail: 'timeout' }), timeoutMs).unref());
  const result = await Promise.race([answer, timeout]);
  return { ...result, ms: performance.now() - started };
}

/**
 * The well-behaved annotator's cycle: a page of records, a page by a simple word, checked against
 * what the seeding stored. Returns the problems found (empty when every answer is right).
 */
export async function readerCycle(world: AbuseWorld, k: number): Promise<{ problems: string[]; latencies: number[] }> {
  const problems: string[] = [];
  const latencies: number[] = [];
  const offset = (k * 37) % (world.records - 20);
  let started = performance.now();
  const page = await world.reader.post(`/me/datasets/${world.datasetId}/records/search?offset=${offset}&limit=10`, {});
  latencies.push(performance.now() - started);
  if (page.status !== 200) problems.push(`page: ${page.status} ${JSON.stringify(page.body).slice(0, 200)}`);
  else {
    const ids = page.body.items.map((item: { record: { external_id: string } }) => item.record.external_id);
    const want = Array.from({ length: 10 }, (_, i) => `r${offset + i}`);
    if (JSON.stringify(ids) !== JSON.stringify(want)) problems.push(`page at ${offset}: ${ids.join(',')}`);
    if (page.body.total !== world.records) problems.push(`page total ${page.body.total}`);
  }
  const wanted = k % (world.records - 10);
  started = performance.now();
  const found = await world.reader.post(`/me/datasets/${world.datasetId}/records/search?limit=5`, { query: { text: { q: `record${wanted}` } } });
  latencies.push(performance.now() - started);
  if (found.status !== 200) problems.push(`search: ${found.status} ${JSON.stringify(found.body).slice(0, 200)}`);
  else if (found.body.total !== 1 || found.body.items[0]?.record.external_id !== `r${wanted}`) {
    problems.push(`search record${wanted}: total ${found.body.total}, first ${found.body.items[0]?.record.external_id}`);
  }
  return { problems, latencies };
}
