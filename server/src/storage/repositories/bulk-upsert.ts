import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { postgresArrayParameter, type PostgresElementType } from '../postgres-binary-array.js';
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
const statementCache = new WeakMap<RawSqlite, Map<string, SQLite.Statement>>();

export async function bulkUpsert<Row, Out = unknown>(db: Db, spec: BulkTable<Row>, rows: Row[], raw?: RawSqlite, options: BulkWriteOptions = {}): Promise<Out[]> {
  if (rows.length === 0) return [];
  const tail = [options.allNew ? '' : spec.onConflict, spec.returning ?? ''].join(' ');
  if (dialectOf(db) === 'postgres') return (await postgresUnnestInsert<Row, Out>(spec, rows, tail).execute(db)).rows;
  const tuples = rows.map((row) => spec.columns.map(([key]) => row[key] ?? null));
  if (raw) return rawInsertMany(raw, spec, tuples, tail) as Out[];
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

function rawInsertMany<Row>(raw: RawSqlite, spec: BulkTable<Row>, values: unknown[][], tail: string): unknown[] {
  const out: unknown[] = [];
  const tuple = `(${spec.columns.map(() => '?').join(', ')})`;
  const returns = spec.returning !== undefined;
  for (let start = 0; start < values.length; start += RAW_CHUNK_ROWS) {
    const chunk = values.slice(start, start + RAW_CHUNK_ROWS);
    const text = `INSERT INTO ${spec.table} (${columnList(spec)}) VALUES ${Array(chunk.length).fill(tuple).join(', ')} ${tail}`;
    const statement = cachedStatement(raw, text);
    const params = chunk.flat();
    if (returns) out.push(...statement.all(params));
    else statement.run(params);
  }
  return out;
}

function cachedStatement(raw: RawSqlite, text: string): SQLite.Statement {
  let cache = statementCache.get(raw);
  if (!cache) statementCache.set(raw, (cache = new Map()));
  let statement = cache.get(text);
  if (!statement) cache.set(text, (statement = raw.prepare(text)));
  return statement;
}
