import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { postgresArrayParameter, type PostgresElementType } from '../postgres-binary-array.js';
import { reusedStatement } from '../statement-cache.js';
import type { Tables } from '../tables.js';

/**
 * Multi-row `INSERT ... ON CONFLICT` for the bulk-written tables, in the shape each database
 * takes best:
 * - SQLite with the raw handle under the caller's transaction: fixed-size VALUES statements,
 *   prepared once and reused.
 * - SQLite without it: VALUES statements through Kysely (joins the transaction).
 * - PostgreSQL: one statement of one array per column (`SELECT * FROM unnest(...)`), each sent in
 *   the binary format (postgres-binary-array.ts). A 500-row VALUES list is 4,500 parameters for
 *   Kysely to build and PostgreSQL to parse and plan per request; the arrays are a dozen, and
 *   PostgreSQL spent 10-20 µs less per row.
 */
export type RawSqlite = SQLite.Database;

export interface BulkTable<Row> {
  table: string;
  /** The row's keys in column order, each with its PostgreSQL type; the column is the key, quoted. */
  columns: readonly (readonly [key: keyof Row & string, postgresType: PostgresElementType])[];
  /** `ON CONFLICT ...`: how a row that exists already is updated (the same text in both dialects). */
  onConflict: string;
  /** `RETURNING ...` when the writer needs the written rows' keys back. */
  returning?: string;
}

export interface BulkWriteOptions {
  /**
   * No row can exist yet (every row belongs to a record this write creates): a plain INSERT.
   * PostgreSQL's `ON CONFLICT` costs ~5 µs a row even when nothing conflicts.
   */
  allNew?: boolean;
}

type Db = Kysely<Tables>;

/** SQLite binds at most 32766 parameters per statement; stay well below it. */
const MAX_PARAMETERS = 30_000;
const RAW_CHUNK_ROWS = 100;

export async function bulkUpsert<Row, Out = unknown>(db: Db, spec: BulkTable<Row>, rows: Row[], raw?: RawSqlite, options: BulkWriteOptions = {}): Promise<Out[]> {
  if (rows.length === 0) return [];
  const tail = [options.allNew ? '' : spec.onConflict, spec.returning ?? ''].join(' ');
  if (dialectOf(db) === 'postgres') return (await postgresUnnestInsert<Row, Out>(spec, rows, tail).execute(db)).rows;
  if (raw) return rawInsertMany(raw, spec, rows, tail) as Out[];
  const tuples = rows.map((row) => spec.columns.map(([key]) => row[key] ?? null));
  const out: Out[] = [];
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / spec.columns.length));
  for (let start = 0; start < tuples.length; start += perStatement) {
    const values = tuples.slice(start, start + perStatement).map((tuple) => sql`(${sql.join(tuple)})`);
    const { rows: written } = await sql<Out>`INSERT INTO ${sql.raw(spec.table)} (${sql.raw(columnList(spec))}) VALUES ${sql.join(values)} ${sql.raw(tail)}`.execute(db);
    out.push(...written);
  }
  return out;
}

function postgresUnnestInsert<Row, Out>(spec: BulkTable<Row>, rows: Row[], tail: string) {
  const arrays = spec.columns.map(([key, type]) => postgresArrayParameter(type, rows.map((row) => row[key])));
  return sql<Out>`INSERT INTO ${sql.raw(spec.table)} (${sql.raw(columnList(spec))}) SELECT * FROM unnest(${sql.join(arrays)}) ${sql.raw(tail)}`;
}

const columnList = (spec: BulkTable<never>): string => spec.columns.map(([key]) => `"${key}"`).join(', ');

/**
 * Rows go in statements of RAW_CHUNK_ROWS rows (the last one shorter), each prepared once per
 * connection and shape. A column holding one value in every row of a statement (the dataset, a
 * new record's status, a suggestion's question and agent) is bound once, as a named parameter each
 * row repeats: binding a string copies it twice (into UTF-8, then into SQLite). The rows' own
 * values go flat, in the order they bind.
 */
function rawInsertMany<Row>(raw: RawSqlite, spec: BulkTable<Row>, rows: Row[], tail: string): unknown[] {
  const out: unknown[] = [];
  const keys = spec.columns.map(([key]) => key);
  const returns = spec.returning !== undefined;
  for (let start = 0; start < rows.length; start += RAW_CHUNK_ROWS) {
    const end = Math.min(rows.length, start + RAW_CHUNK_ROWS);
    const shared = keys.map((key) => sameInEveryRow(rows, start, end, key));
    const sharedValues: Record<string, unknown> = {};
    const varying: (keyof Row)[] = [];
    keys.forEach((key, column) => {
      if (shared[column]) sharedValues[`s${column}`] = rows[start][key] ?? null;
      else varying.push(key);
    });
    const params: unknown[] = [];
    for (let r = start; r < end; r += 1) {
      const row = rows[r];
      for (const key of varying) params.push(row[key] ?? null);
    }
    const statement = cachedStatement(raw, spec, tail, end - start, shared);
    if (returns) out.push(...statement.all(params, sharedValues));
    else statement.run(params, sharedValues);
  }
  return out;
}

function sameInEveryRow<Row>(rows: Row[], start: number, end: number, key: keyof Row): boolean {
  const first = rows[start][key] ?? null;
  // Bytes (a vector) are never shared: two equal buffers are still two values.
  if (typeof first === 'object' && first !== null) return false;
  for (let r = start + 1; r < end; r += 1) if ((rows[r][key] ?? null) !== first) return false;
  return true;
}

/**
 * Prepared bulk statements of a connection by table, row count, shared columns and tail. The
 * shapes a server meets are few (statements of 100 rows, and the last one of each write), but
 * each is hundreds of KiB of compiled program: the least recently used go past this many.
 */
const BULK_STATEMENTS = 64;
const statementCache = new WeakMap<RawSqlite, Map<string, SQLite.Statement>>();

function cachedStatement<Row>(raw: RawSqlite, spec: BulkTable<Row>, tail: string, rowCount: number, shared: boolean[]): SQLite.Statement {
  let cache = statementCache.get(raw);
  if (!cache) statementCache.set(raw, (cache = new Map()));
  const key = `${spec.table} ${rowCount} ${shared.map(Number).join('')} ${tail}`;
  return reusedStatement(cache, key, BULK_STATEMENTS, () => {
    const tuple = `(${shared.map((isShared, column) => (isShared ? `@s${column}` : '?')).join(', ')})`;
    return raw.prepare(`INSERT INTO ${spec.table} (${columnList(spec)}) VALUES ${Array(rowCount).fill(tuple).join(', ')} ${tail}`);
  });
}
