import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { sql, type Kysely } from 'kysely';
import { TestApi } from '../api-client.js';
import { ALL_QUESTIONS, seedDataset, type SeededDataset } from '../dataset-fixtures.js';
import { ownApiKey } from '../fixtures.js';
import { OWNER, type TestServer } from '../test-server.js';
import { dialectOf } from '../../src/storage/dialect.js';
import type { Tables } from '../../src/storage/tables.js';
import { TABLES_IN_KEY_ORDER } from '../../src/storage/table-order.js';

/**
 * Shared pieces of the reliability suite (server/test/reliability) and of bench/reliability.ts:
 * the server's own /api/v1 route table, the principals of the authorization matrix, a world of
 * fixtures in two workspaces, table snapshots, and the contract §5 error-shape check.
 * No vitest import here, so the bench can load it outside the test runner.
 */

/** "METHOD /api/v1/path/:param" for every API route the app registered (HEAD aliases left out). */
export function listApiRoutes(app: FastifyInstance): string[] {
  // printRoutes draws a radix tree: "│   " / "    " per level, then "├── " / "└── ", the segment and "(METHODS)".
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes = new Set<string>();
  for (const line of tree.split('\n')) {
    const marker = line.search(/[├└]── /);
    if (marker < 0) continue;
    const depth = marker / 4;
    const match = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(marker + 4));
    if (!match) continue;
    stack.length = depth;
    stack.push(match[1]);
    const fullPath = stack.join('');
    for (const method of (match[2] ?? '').split(',').map((m) => m.trim()).filter(Boolean)) {
      if (method !== 'HEAD' && fullPath.startsWith('/api/v1/')) routes.add(`${method} ${fullPath}`);
    }
  }
  return [...routes].sort();
}

/** The principals of the matrix (contract §1.1, §1.5). */
export const MATRIX_PRINCIPALS = [
  'anonymous',
  'badToken',
  'expiredToken',
  'annotatorMember',
  'annotatorOutsider',
  'adminMember',
  'adminOutsider',
  'owner',
] as const;
export type MatrixPrincipal = (typeof MATRIX_PRINCIPALS)[number];

export interface WorldUser {
  id: string;
  username: string;
  password: string;
  apiKey: string;
  api: TestApi;
}

/** Fixtures in workspace `ws` (the members') and `otherWs` (the outsiders'), plus clients per principal. */
export interface World {
  server: TestServer;
  db: Kysely<Tables>;
  owner: TestApi;
  ownerId: string;
  ws: string;
  otherWs: string;
  users: Record<'adminMember' | 'adminOutsider' | 'annotatorMember' | 'annotatorOutsider', WorldUser>;
  clients: Record<MatrixPrincipal, TestApi>;
  /** Published dataset in `ws` with a record, a response of annotatorMember, a suggestion. */
  dataset: SeededDataset;
  recordId: string;
  responseId: string;
  suggestionId: string;
  metadataPropertyId: string;
  /** The same in `otherWs`, for IDOR checks. */
  otherDataset: SeededDataset;
  otherRecordId: string;
  otherResponseId: string;
  otherSuggestionId: string;
  jobId: string;
  webhookId: string;
  /** Tells whether a refused request wrote anything. */
  watch: WriteWatch;
}

let counter = 0;
/** A name unique in this process, valid for the SDK's name rule. */
export const unique = (prefix: string): string => `${prefix}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

async function must<T = any>(promise: Promise<{ status: number; body: T }>, expected: number | number[]): Promise<T> {
  const res = await promise;
  const ok = Array.isArray(expected) ? expected.includes(res.status) : res.status === expected;
  if (!ok) throw new Error(`fixture call answered ${res.status}: ${JSON.stringify(res.body).slice(0, 500)}`);
  return res.body;
}

export async function createWorldUser(owner: TestApi, role: 'admin' | 'annotator', workspaceId?: string): Promise<WorldUser> {
  const username = unique(role);
  const password = `${username}-password`;
  const body = await must(owner.post('/users', { username, first_name: username, role, password }), 201);
  if (workspaceId) await must(owner.post(`/workspaces/${workspaceId}/users`, { user_id: body.id }), 201);
  const apiKey = await ownApiKey(owner, username, password);
  return { id: body.id, username, password, apiKey, api: owner.as({ apiKey }) };
}

export const METADATA = [{ name: 'split', settings: { type: 'terms', values: ['train', 'test'] }, visible_for_annotators: true }];

/** A published dataset (seeded straight into storage, like the records tests do). */
export function seedPublished(server: TestServer, workspaceId: string, options: { minSubmitted?: number; status?: 'draft' | 'ready' } = {}) {
  return seedDataset(server.app.database.db, server.app.database.dialect, {
    workspaceId,
    questions: ALL_QUESTIONS,
    metadata: METADATA,
    vectors: [{ name: 'emb', dimensions: 3 }],
    ...options,
  });
}

/** Creates a record in `datasetId` through the API and returns its id. */
export async function createRecord(owner: TestApi, datasetId: string, text = 'a record'): Promise<string> {
  const body = await must(owner.put(`/datasets/${datasetId}/records/bulk`, { items: [{ fields: { text }, metadata: { split: 'train' } }] }), 200);
  return body.items[0].id;
}

export async function buildWorld(server: TestServer): Promise<World> {
  const owner = new TestApi(server.url, { apiKey: OWNER.apiKey });
  const me = await must(owner.get('/me'), 200);
  const ws = (await must(owner.post('/workspaces', { name: unique('ws') }), 201)).id;
  const otherWs = (await must(owner.post('/workspaces', { name: unique('ws-other') }), 201)).id;
  const [adminMember, annotatorMember, adminOutsider, annotatorOutsider] = await Promise.all([
    createWorldUser(owner, 'admin', ws),
    createWorldUser(owner, 'annotator', ws),
    createWorldUser(owner, 'admin', otherWs),
    createWorldUser(owner, 'annotator', otherWs),
  ]);
  const anonymous = owner.as(undefined);
  const clients: Record<MatrixPrincipal, TestApi> = {
    anonymous,
    badToken: owner.as({ token: 'not.a.jwt' }),
    expiredToken: owner.as({ token: await expiredToken(server.dataDir, adminMember) }),
    annotatorMember: annotatorMember.api,
    annotatorOutsider: annotatorOutsider.api,
    adminMember: adminMember.api,
    adminOutsider: adminOutsider.api,
    owner,
  };
  const dataset = await seedPublished(server, ws);
  const otherDataset = await seedPublished(server, otherWs);
  const recordId = await createRecord(owner, dataset.id);
  const otherRecordId = await createRecord(owner, otherDataset.id);
  const answer = { status: 'submitted', values: { label: { value: 'positive' } } };
  const responseId = (await must(annotatorMember.api.post(`/records/${recordId}/responses`, answer), 201)).id;
  const otherResponseId = (await must(annotatorOutsider.api.post(`/records/${otherRecordId}/responses`, answer), 201)).id;
  const suggestion = (d: SeededDataset) => ({ question_id: d.questionIds.label, value: 'negative', agent: 'bot' });
  const suggestionId = (await must(owner.put(`/records/${recordId}/suggestions`, suggestion(dataset)), 201)).id;
  const otherSuggestionId = (await must(owner.put(`/records/${otherRecordId}/suggestions`, suggestion(otherDataset)), 201)).id;
  const metadataPropertyId = (await must(owner.get(`/me/datasets/${dataset.id}/metadata-properties`), 200)).items[0].id;
  const job = await must(owner.post(`/datasets/${dataset.id}/export`, { name: 'scholia/x', token: 'hf_secret_token' }), 202);
  const webhook = await must(owner.post('/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['dataset.created'] }), 201);
  await waitForJobs(server.app.database.db);
  return {
    server,
    db: server.app.database.db,
    owner,
    ownerId: me.id,
    ws,
    otherWs,
    users: { adminMember, adminOutsider, annotatorMember, annotatorOutsider },
    clients,
    dataset,
    recordId,
    responseId,
    suggestionId,
    metadataPropertyId,
    otherDataset,
    otherRecordId,
    otherResponseId,
    otherSuggestionId,
    jobId: job.id,
    webhookId: webhook.id,
    watch: new WriteWatch(server.app.database.db),
  };
}

/** Waits until no job is queued or running (background jobs would move table snapshots). */
export async function waitForJobs(db: Kysely<Tables>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const busy = await db.selectFrom('jobs').select('id').where('status', 'in', ['queued', 'started']).limit(1).executeTakeFirst();
    if (!busy) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('jobs still running');
}

/** A correctly signed token of this install, naming a real user at its current version, whose `exp` is in the past. */
export async function expiredToken(dataDir: string, user: { id: string; username: string }): Promise<string> {
  const secret = fs.readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim();
  return new SignJWT({ identity: user.id, name: user.username, username: user.username, role: 'admin', ver: 0 })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
    .sign(new TextEncoder().encode(secret));
}

/** Tables whose rows only background work changes (jobs, webhook deliveries) or that hold throwaway login state. */
const VOLATILE_TABLES = new Set(['jobs', 'webhook_deliveries', 'oauth_states']);
/** Columns of other tables that only background work writes: a webhook's turn of the deliverer. */
const VOLATILE_COLUMNS: Partial<Record<string, readonly string[]>> = { webhooks: ['sending_by', 'sending_since', 'served_at'] };
const TABLES = TABLES_IN_KEY_ORDER;

/** A content hash of every (non-volatile) table: equal before and after means nothing was written. */
export async function snapshotTables(db: Kysely<Tables>): Promise<string> {
  const hash = createHash('sha256');
  for (const table of TABLES) {
    if (VOLATILE_TABLES.has(table)) continue;
    const rows = await db.selectFrom(table).selectAll().execute();
    const skipped = new Set(VOLATILE_COLUMNS[table] ?? []);
    const lines = rows
      .map((row) => JSON.stringify(row, (key, v) => (skipped.has(key) ? undefined : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v)))
      .sort();
    hash.update(`${table}:${lines.length}\n${lines.join('\n')}\n`);
  }
  return hash.digest('hex');
}

/**
 * A value that moves whenever a row is written. SQLite: the count of rows changed on the server's
 * connection and the data version (moved by other connections' commits). PostgreSQL: each
 * non-volatile table's row count and highest row xmin (an insert or update stamps its row with
 * its transaction's id), computed in the database, so other databases of the cluster do not count.
 */
async function writeMark(db: Kysely<Tables>): Promise<string> {
  if (dialectOf(db) === 'sqlite') {
    const query = sql<{ mark: string }>`SELECT total_changes() || ':' || (SELECT data_version FROM pragma_data_version) AS mark`;
    return (await query.execute(db)).rows[0].mark;
  }
  const parts = TABLES.filter((table) => !VOLATILE_TABLES.has(table)).map(
    (table) => sql`(SELECT count(*) || '/' || coalesce(max(xmin::text::bigint), 0) FROM ${sql.table(table)})`,
  );
  const query = sql<{ mark: string }>`SELECT concat_ws(':', ${sql.join(parts)}) AS mark`;
  return (await query.execute(db)).rows[0].mark;
}

/**
 * PostgreSQL's next transaction id, cluster-wide: it stays put until some transaction writes, so
 * while it does, the last write mark still holds and the per-table scan can be skipped.
 */
async function nextTransactionId(db: Kysely<Tables>): Promise<string | undefined> {
  if (dialectOf(db) === 'sqlite') return undefined;
  const query = sql<{ next: string }>`SELECT txid_snapshot_xmax(txid_current_snapshot())::text AS next`;
  return (await query.execute(db)).rows[0].next;
}

/**
 * Whether a request wrote anything, cheaply enough for thousands of cases: the write mark must not
 * move while the request runs. While a background job runs (it writes as it goes) the tables are
 * also hashed (snapshotTables, every row), and a moved mark is then judged by the hashes.
 */
export class WriteWatch {
  private mark: string | undefined;
  private hash: string | undefined;
  /** The write mark last computed, and the next transaction id when it was (PostgreSQL). */
  private known: { next: string; mark: string } | undefined;

  constructor(private readonly db: Kysely<Tables>) {}

  /** Records the state a request about to be sent may not change. */
  async before(): Promise<void> {
    this.mark = await this.currentMark();
    const jobRunning = await this.db.selectFrom('jobs').select('id').where('status', 'in', ['queued', 'started']).limit(1).executeTakeFirst();
    this.hash = jobRunning ? await snapshotTables(this.db) : undefined;
  }

  /** True when nothing was written since `before()`. */
  async unchanged(): Promise<boolean> {
    if ((await this.currentMark()) === this.mark) return true;
    return this.hash !== undefined && (await snapshotTables(this.db)) === this.hash;
  }

  private async currentMark(): Promise<string> {
    const next = await nextTransactionId(this.db);
    if (next === undefined) return writeMark(this.db);
    if (this.known?.next === next) return this.known.mark;
    const mark = await writeMark(this.db);
    this.known = { next, mark };
    return mark;
  }
}

const API = 'argilla.api.errors::';
/**
 * True when `body` is one of the contract §5 error bodies: `{detail: string}`,
 * `{detail: {code: argilla.api.errors::X, params: {...}}}` or the coded 422 `{code, message}`.
 */
export function isContractError(status: number, body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  if (status === 422 && typeof b.code === 'string' && typeof b.message === 'string' && !('detail' in b)) return true;
  if (typeof b.detail === 'string') return [400, 401, 403, 404, 405, 408, 409, 413, 415, 422, 429, 431].includes(status);
  if (typeof b.detail !== 'object' || b.detail === null) return false;
  const d = b.detail as Record<string, unknown>;
  if (typeof d.code !== 'string' || !d.code.startsWith(API) || typeof d.params !== 'object' || d.params === null) return false;
  const expected: Record<number, string> = {
    400: 'BadRequestError',
    401: 'UnauthorizedError',
    403: 'ForbiddenOperationError',
    422: 'ValidationError',
  };
  if (expected[status] !== d.code.slice(API.length)) return false;
  if (status === 422) {
    const errors = (d.params as { errors?: unknown }).errors;
    return Array.isArray(errors) && errors.length > 0 && errors.every((e) => typeof e?.type === 'string' && Array.isArray(e.loc) && typeof e.msg === 'string');
  }
  return true;
}
