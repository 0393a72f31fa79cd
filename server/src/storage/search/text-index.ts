import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import type { Tables } from '../tables.js';

/**
 * Full-text index of record fields, one FTS5 table per dataset (limits.md §2: scoping by
 * dataset inside the index keeps text search fast at 1M records). Columns follow the dataset's
 * fields in creation order, so `field` searches are FTS5 column filters. Contentless: the
 * records table keeps the text; the index keeps only postings.
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
  if (dialect !== 'sqlite') return; // PostgreSQL indexes a tsvector column instead (scale issue)
  const columns = fields.map((_, i) => `c${i}`).join(', ') || 'c0';
  await sql
    .raw(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${textIndexTable(datasetId)} USING fts5(${columns}, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`,
    )
    .execute(db);
}

export async function dropTextIndex(db: Kysely<Tables>, dialect: DialectName, datasetId: string) {
  if (dialect !== 'sqlite') return;
  await sql.raw(`DROP TABLE IF EXISTS ${textIndexTable(datasetId)}`).execute(db);
}

/**
 * (Re)indexes records. Call inside the transaction that writes them, with each record's full,
 * merged fields, so the index never disagrees with the stored rows.
 */
export interface IndexRecordTextsOptions {
  /** Every record is new (never indexed): skip the delete of previous postings. */
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
  if (dialect !== 'sqlite' || records.length === 0) return;
  if (fields.length === 0) return;
  const table = sql.table(textIndexTable(datasetId));
  const columns = sql.raw(fields.map((_, i) => `c${i}`).join(', '));
  if (!options.fresh) await removeRecordTexts(db, dialect, datasetId, records.map((r) => r.rid));
  // Through Kysely (not the raw handle) so the statements join the caller's transaction.
  // Multi-row statements: one round trip per chunk instead of one per record.
  const perStatement = Math.max(1, Math.floor(30_000 / (fields.length + 1)));
  for (let start = 0; start < records.length; start += perStatement) {
    const rows = records.slice(start, start + perStatement).map((record) => {
      const texts = fields.map((field) => searchableText(field, record.fields[field.name]));
      return sql`(${record.rid}, ${sql.join(texts)})`;
    });
    await sql`INSERT INTO ${table} (rowid, ${columns}) VALUES ${sql.join(rows)}`.execute(db);
  }
}

export async function removeRecordTexts(db: Kysely<Tables>, dialect: DialectName, datasetId: string, rids: number[]) {
  if (dialect !== 'sqlite' || rids.length === 0) return;
  const table = sql.table(textIndexTable(datasetId));
  for (let start = 0; start < rids.length; start += 500) {
    const chunk = rids.slice(start, start + 500);
    await sql`DELETE FROM ${table} WHERE rowid IN (${sql.join(chunk)})`.execute(db);
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

/** Runs of characters the unicode61 tokenizer keeps in tokens (letters, numbers, marks, private use). */
const TOKEN_RUN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/**
 * The FTS5 MATCH expression for a user's text query (contract §4.2: tokenised, case-insensitive,
 * every term must match), restricted to one index column when given. User text never reaches
 * FTS5 syntax: it is cut into token runs and each is quoted, so `"`, `*`, `AND`, `NEAR(` or
 * `col:` are plain words. Returns undefined when the text has no tokens (matches nothing, as
 * the reference's `match` with zero terms).
 */
export function buildTextMatch(text: string, column?: string): string | undefined {
  const tokens = text.match(TOKEN_RUN);
  if (!tokens || tokens.length === 0) return undefined;
  const phrases = tokens.map((token) => `"${token}"`).join(' ');
  return column ? `${column} : (${phrases})` : phrases;
}
