import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { sqliteHandle } from '../open-database.js';
import { EventLoopSlices } from '../../lib/event-loop-slices.js';
import type { Tables } from '../tables.js';

type Db = Kysely<Tables>;

/** Receives one submitted response: its record, author and stored values (JSON text). */
export type AnswerVisitor = (recordId: string, userId: string, values: string) => void;

/** Rows read per statement: a page takes ~10 ms, and the event loop serves others between pages. */
const PAGE_ROWS = 5_000;

/**
 * Every submitted response of a dataset that has values, handed over one at a time. SQLite reads
 * plain arrays, annotator by annotator along the responses index, so that an annotator's id
 * crosses once rather than with each row: a dataset's answers can number in the hundreds of
 * thousands, and what each row brings over is most of the reading time. (Cutting the answers out
 * with SQLite's JSON functions costs more than reading the whole values: measured.) Pages follow
 * the index's rowid order, and other requests are served between them.
 */
export async function forEachSubmittedAnswer(db: Db, datasetId: string, visit: AnswerVisitor): Promise<void> {
  const slices = new EventLoopSlices();
  if (dialectOf(db) === 'sqlite') {
    const sqlite = sqliteHandle(db);
    const nextUser = sqlite.prepare('SELECT min(user_id) FROM responses WHERE dataset_id = ? AND user_id > ?').pluck();
    const page = sqlite
      .prepare(
        `SELECT rowid, record_id, "values" FROM responses INDEXED BY responses_dataset_user_status_idx
         WHERE dataset_id = ? AND user_id = ? AND status = 'submitted' AND rowid > ? AND "values" IS NOT NULL
         ORDER BY rowid LIMIT ${PAGE_ROWS}`,
      )
      .raw(true);
    let userId = nextUser.get(datasetId, '') as string | null;
    while (userId !== null) {
      for (let after = 0; ; ) {
        const rows = page.all(datasetId, userId, after) as [number, string, string][];
        for (const row of rows) visit(row[1], userId, row[2]);
        await slices.between();
        if (rows.length < PAGE_ROWS) break;
        after = rows[rows.length - 1][0];
      }
      userId = nextUser.get(datasetId, userId) as string | null;
    }
    return;
  }
  const rows = await db
    .selectFrom('responses')
    .select(['record_id', 'user_id', 'values'])
    .where('dataset_id', '=', datasetId)
    .where('status', '=', 'submitted')
    .where('values', 'is not', null)
    .execute();
  for (let i = 0; i < rows.length; i += 1) {
    visit(rows[i].record_id, rows[i].user_id, toText(rows[i].values));
    if (i % PAGE_ROWS === PAGE_ROWS - 1) await slices.between();
  }
}

/** The rid of each record of a dataset, by record id (in pages on SQLite, others served between them). */
export async function recordRidsById(db: Db, datasetId: string): Promise<Map<string, number>> {
  const rids = new Map<string, number>();
  if (dialectOf(db) === 'sqlite') {
    const slices = new EventLoopSlices();
    const page = sqliteHandle(db)
      .prepare(`SELECT id, rid FROM records WHERE dataset_id = ? AND rid > ? ORDER BY rid LIMIT ${PAGE_ROWS * 2}`)
      .raw(true);
    for (let after = 0; ; ) {
      const rows = page.all(datasetId, after) as [string, number][];
      for (const [id, rid] of rows) rids.set(id, rid);
      await slices.between();
      if (rows.length < PAGE_ROWS * 2) return rids;
      after = rows[rows.length - 1][1];
    }
  }
  for (const row of await db.selectFrom('records').select(['id', 'rid']).where('dataset_id', '=', datasetId).execute()) rids.set(row.id, Number(row.rid));
  return rids;
}

/**
 * The dataset's `response_set_versions` version: it changes with every change to the dataset's
 * responses (migration 202611260200); 0 before its first response.
 */
export async function responseSetVersion(db: Db, datasetId: string): Promise<number> {
  const { rows } = await sql<{ version: number | string }>`SELECT version FROM response_set_versions WHERE dataset_id = ${datasetId}`.execute(db);
  return rows.length === 0 ? 0 : Number(rows[0].version);
}

/** A move of a dataset's response-set version by one: from `fromVersion` to `toVersion`. */
export interface VersionStep {
  fromVersion: number;
  toVersion: number;
}

/**
 * Runs `write`, the transaction `trx`'s change to one response of the dataset, and tells the
 * version step it made: undefined when it moved the version by other than exactly one (an
 * unchanged response does not move it). Call it with everything else the transaction does inside
 * `write`, so that the version row is held only at its end.
 */
export async function withResponseSetStep<T>(trx: Db, datasetId: string, write: () => Promise<T>): Promise<{ result: T; step: VersionStep | undefined }> {
  if (dialectOf(trx) === 'sqlite') {
    // Written first, so that this transaction holds the write lock from here: no other process's write comes between the two reads.
    const locked = await sql<{ version: number }>`UPDATE response_set_versions SET version = version WHERE dataset_id = ${datasetId} RETURNING version`.execute(trx);
    const before = locked.rows.length === 0 ? 0 : Number(locked.rows[0].version);
    const result = await write();
    const after = await responseSetVersion(trx, datasetId);
    return { result, step: after === before + 1 ? { fromVersion: before, toVersion: after } : undefined };
  }
  const result = await write();
  // The triggers bump the version once per transaction, at commit (202611260200). Firing them now,
  // when the transaction has taken every other lock, keeps that order and holds the version row
  // from here to the commit: no other transaction moves it in between, so this bump is the last step.
  await sql`SET CONSTRAINTS ALL IMMEDIATE`.execute(trx);
  const marker = `scholia.response_set_${datasetId.replaceAll('-', '')}`;
  const { rows } = await sql<{ bumped: string | null; version: number | string }>`
    SELECT current_setting(${marker}, true) AS bumped, version FROM response_set_versions WHERE dataset_id = ${datasetId}`.execute(trx);
  if (rows.length === 0 || rows[0].bumped !== 'bumped') return { result, step: undefined };
  const after = Number(rows[0].version);
  return { result, step: { fromVersion: after - 1, toVersion: after } };
}

/** jsonb arrives as text (open-database.ts); anything else is turned into it. */
const toText = (values: unknown): string => (typeof values === 'string' ? values : JSON.stringify(values));

export async function findUsernames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((row) => [row.id, row.username]));
}
