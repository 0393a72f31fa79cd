import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from '../dialect.js';
import type { Tables } from '../tables.js';
import { postgresArrayParameter } from '../postgres-binary-array.js';
import { postgresBinaryTsvectors } from '../postgres-binary-tsvector.js';
import { textWords } from './text-tokenizer.js';

/**
 * Full-text index of record fields, one table per dataset (limits.md §2: scoping by dataset
 * inside the index keeps text search fast at 1M records). Columns follow the dataset's fields
 * in creation order (`c0`, `c1`, ...), so `field` searches read one column.
 * - SQLite: a contentless FTS5 table (rowid = records.rid); the records table keeps the text.
 * - PostgreSQL: a table `(rid, doc tsvector, c0 tsvector, ...)` with one GIN index, on `doc` (all
 *   fields); a search in one field finds its candidates there and tests them on the field's
 *   column (text-query-postgres.ts). An index per column too doubled the index entries a record
 *   adds, the largest part of PostgreSQL's time in a bulk ingestion.
 * Both hold the words of text-tokenizer.ts (the reference engine's standard analyzer), made here,
 * so both dialects find the same records.
 */
export interface TextIndexField {
  name: string;
  settings: { type: string } | string;
}

export interface IndexedRecord {
  rid: number;
  fields: Record<string, unknown>;
}

export function textIndexTable(datasetId: string): string {
  return `fts_${datasetId.replace(/-/g, '')}`;
}

/** Column name of a field in the dataset's index (`c0`, `c1`, ...), or undefined if not indexed. */
export function textIndexColumn(fields: TextIndexField[], fieldName: string): string | undefined {
  const index = fields.findIndex((f) => f.name === fieldName);
  return index < 0 ? undefined : `c${index}`;
}

export async function createTextIndex(db: Kysely<Tables>, dialect: DialectName, datasetId: string, fields: TextIndexField[]) {
  if (dialect === 'postgres') {
    const table = textIndexTable(datasetId);
    const columns = fields.map((_, i) => `, c${i} tsvector`).join('');
    // No foreign key to records: its check cost each row ~9 µs; deleted records' rows are deleted
    // with them (text-index-writes.ts).
    await sql.raw(`CREATE TABLE IF NOT EXISTS ${table} (rid bigint PRIMARY KEY, doc tsvector NOT NULL${columns})`).execute(db);
    await sql.raw(`CREATE INDEX IF NOT EXISTS ${table}_doc ON ${table} USING gin (doc)`).execute(db);
    return;
  }
  await sql.raw(sqliteCreateTextIndexSql(datasetId, fields.length)).execute(db);
}

/**
 * SQLite: a dataset's FTS5 table, in the text index file attached as `text` (text-index-file.ts),
 * which only the text indexer writes once the server runs.
 */
export function sqliteCreateTextIndexSql(datasetId: string, fieldCount: number): string {
  const columns = Array.from({ length: Math.max(1, fieldCount) }, (_, i) => `c${i}`).join(', ');
  return `CREATE VIRTUAL TABLE IF NOT EXISTS ${TEXT_SCHEMA}.${textIndexTable(datasetId)} USING fts5(${columns}, u, content='', contentless_delete=1, tokenize="${SQLITE_TOKENIZER}")`;
}

/** The schema name the SQLite text index file is attached under. */
export const TEXT_SCHEMA = 'text';

/** One record's row of the SQLite index: its words per field column, then the `u` word. */
export function sqliteIndexRow(fields: TextIndexField[], values: Record<string, unknown>): (string | null)[] {
  return [...fields.map((field) => sqliteIndexText(searchableText(field, values[field.name]))), EVERY_RECORD_WORD];
}

/**
 * FTS5's `ascii` tokenizer over text already cut into words (text-tokenizer.ts): every non-ASCII
 * character and the ASCII ones a word may hold are token characters, spaces separate.
 */
const SQLITE_TOKENIZER = "ascii tokenchars '''_.,;:'";

/** The one word of every row's `u` column: the set a negation subtracts from (text-query-sqlite.ts). */
export const EVERY_RECORD_WORD = '_';

export async function dropTextIndex(db: Kysely<Tables>, _dialect: DialectName, datasetId: string) {
  await sql.raw(`DROP TABLE IF EXISTS ${textIndexTable(datasetId)}`).execute(db);
}

/**
 * (Re)indexes records. Call inside the transaction that writes them, with each record's full,
 * merged fields, so the index never disagrees with the stored rows.
 */
export interface IndexRecordTextsOptions {
  /** Every record is new (never indexed): no previous words to delete or replace. */
  fresh?: boolean;
}

export async function indexRecordTexts(
  db: Kysely<Tables>,
  dialect: DialectName,
  datasetId: string,
  fields: TextIndexField[],
  records: IndexedRecord[],
  options: IndexRecordTextsOptions = {},
) {
  if (records.length === 0) return;
  if (fields.length === 0) return;
  const table = sql.table(textIndexTable(datasetId));
  const columns = sql.raw(fields.map((_, i) => `c${i}`).join(', '));
  if (dialect === 'postgres') {
    await postgresIndexRecordTexts(db, table, fields, records, options.fresh ?? false);
    return;
  }
  if (!options.fresh) await removeRecordTexts(db, dialect, datasetId, records.map((r) => r.rid));
  // Through Kysely (not the raw handle) so the statements join the caller's transaction.
  // Multi-row statements: one round trip per chunk instead of one per record.
  const perStatement = Math.max(1, Math.floor(30_000 / (fields.length + 1)));
  for (let start = 0; start < records.length; start += perStatement) {
    const rows = records.slice(start, start + perStatement).map((record) => sql`(${record.rid}, ${sql.join(sqliteIndexRow(fields, record.fields))})`);
    await sql`INSERT INTO ${table} (rowid, ${columns}, u) VALUES ${sql.join(rows)}`.execute(db);
  }
}

export async function removeRecordTexts(db: Kysely<Tables>, dialect: DialectName, datasetId: string, rids: number[]) {
  if (rids.length === 0) return;
  const table = sql.table(textIndexTable(datasetId));
  const key = sql.raw(dialect === 'postgres' ? 'rid' : 'rowid');
  if (dialect === 'postgres' && !(await postgresTableExists(db, textIndexTable(datasetId)))) return;
  for (let start = 0; start < rids.length; start += 500) {
    const chunk = rids.slice(start, start + 500);
    await sql`DELETE FROM ${table} WHERE ${key} IN (${sql.join(chunk)})`.execute(db);
  }
}

/** Text of one field value as search sees it: image fields are not searchable (contract §4.2). */
export function searchableText(field: TextIndexField, value: unknown): string | null {
  const type = typeof field.settings === 'string' ? (JSON.parse(field.settings) as { type: string }).type : field.settings.type;
  if (value === null || value === undefined || type === 'image') return null;
  if (typeof value === 'string') return value;
  if (type === 'chat' && Array.isArray(value)) {
    return value.map((m) => (m && typeof m === 'object' ? String((m as { content?: unknown }).content ?? '') : '')).join('\n');
  }
  return collectStrings(value).join('\n');
}

function collectStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(collectStrings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(collectStrings);
  return [];
}

/**
 * A field's words as the FTS5 table takes them: one space apart, so its tokenizer (`ascii` with
 * the characters words may hold as token characters) finds exactly these words.
 */
function sqliteIndexText(text: string | null): string | null {
  return text === null ? null : textWords(text).join(' ');
}

/**
 * PostgreSQL: each field's words as a binary tsvector (postgres-binary-tsvector.ts: words as
 * text-tokenizer.ts cuts them, where PostgreSQL's parser would cut `can't` in two), one array per
 * column; `doc` is the fields' tsvectors joined by PostgreSQL (`||` shifts each one past the
 * positions before it). Every field's positions start at 2, so a field's first word is never
 * next to the previous field's last one in `doc`: a phrase never spans two fields, as in FTS5.
 */
async function postgresIndexRecordTexts(db: Kysely<Tables>, table: RawBuilder<unknown>, fields: TextIndexField[], records: IndexedRecord[], fresh: boolean) {
  const columns = fields.map((_, i) => `c${i}`);
  const perRecord = records.map((record) =>
    postgresBinaryTsvectors(
      fields.map((field) => {
        const text = searchableText(field, record.fields[field.name]);
        return text === null ? null : textWords(text);
      }),
      FIRST_POSITION,
    ),
  );
  const arrays = [
    postgresArrayParameter('bigint', records.map((r) => r.rid)),
    ...columns.map((_, i) => postgresArrayParameter('tsvector', perRecord.map((vectors) => vectors[i]))),
  ];
  const doc = sql.raw(columns.map((c) => `coalesce(${c}, ''::tsvector)`).join(' || '));
  const updates = sql.raw(['doc', ...columns].map((c) => `${c} = excluded.${c}`).join(', '));
  const names = sql.raw(columns.join(', '));
  const onConflict = fresh ? sql`` : sql`ON CONFLICT (rid) DO UPDATE SET ${updates}`;
  await sql`INSERT INTO ${table} (rid, doc, ${names}) SELECT rid, ${doc}, ${names} FROM unnest(${sql.join(arrays)}) AS t(rid, ${names}) ${onConflict}`.execute(db);
}

/** A field's first word's position in the PostgreSQL index (see postgresIndexRecordTexts). */
const FIRST_POSITION = 2;

/** A word as PostgreSQL reads a lexeme in tsquery text: quoted, `'` doubled and `\` escaped. */
export function quotedLexeme(word: string): string {
  return word.includes("'") || word.includes('\\') ? `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'` : `'${word}'`;
}

/** Whether a table exists (PostgreSQL; a draft dataset has no text index yet). */
export async function postgresTableExists(db: Kysely<Tables>, table: string): Promise<boolean> {
  const { rows } = await sql<{ found: string | null }>`SELECT to_regclass(${table}) AS found`.execute(db);
  return rows[0]?.found != null;
}
