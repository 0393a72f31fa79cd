import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import type { Tables } from '../tables.js';

/**
 * Full-text index of record fields, one table per dataset (limits.md §2: scoping by dataset
 * inside the index keeps text search fast at 1M records). Columns follow the dataset's fields
 * in creation order (`c0`, `c1`, ...), so `field` searches read one column.
 * - SQLite: a contentless FTS5 table (rowid = records.rid); the records table keeps the text.
 * - PostgreSQL: a table `(rid, doc tsvector, c0 tsvector, ...)` with a GIN index on `doc` (all
 *   fields) and on each column. Text is cut into tokens here, exactly as for FTS5's unicode61
 *   tokenizer (letter/number runs, lower case, diacritics removed), and fed to the `simple`
 *   configuration (no stemming, no stop words), so both dialects find the same records.
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
    // rid references records so a deleted record (or dataset) never leaves postings behind.
    await sql
      .raw(`CREATE TABLE IF NOT EXISTS ${table} (rid bigint PRIMARY KEY REFERENCES records(rid) ON DELETE CASCADE, doc tsvector NOT NULL${columns})`)
      .execute(db);
    await sql.raw(`CREATE INDEX IF NOT EXISTS ${table}_doc ON ${table} USING gin (doc)`).execute(db);
    for (let i = 0; i < fields.length; i++) {
      await sql.raw(`CREATE INDEX IF NOT EXISTS ${table}_c${i} ON ${table} USING gin (c${i})`).execute(db);
    }
    return;
  }
  const columns = fields.map((_, i) => `c${i}`).join(', ') || 'c0';
  await sql
    .raw(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${textIndexTable(datasetId)} USING fts5(${columns}, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`,
    )
    .execute(db);
}

export async function dropTextIndex(db: Kysely<Tables>, _dialect: DialectName, datasetId: string) {
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
  if (records.length === 0) return;
  if (fields.length === 0) return;
  const table = sql.table(textIndexTable(datasetId));
  const columns = sql.raw(fields.map((_, i) => `c${i}`).join(', '));
  if (dialect === 'postgres') {
    const updates = sql.raw(['doc', ...fields.map((_, i) => `c${i}`)].map((c) => `${c} = excluded.${c}`).join(', '));
    const perStatement = Math.max(1, Math.floor(30_000 / (fields.length + 2)));
    for (let start = 0; start < records.length; start += perStatement) {
      const rows = records.slice(start, start + perStatement).map((record) => {
        const texts = fields.map((field) => searchableText(field, record.fields[field.name]));
        const doc = texts.filter((t): t is string => t !== null).map(searchTokens).join(' ');
        const vectors = texts.map((t) => (t === null ? sql`NULL` : sql`to_tsvector('simple', ${searchTokens(t)})`));
        return sql`(${record.rid}, to_tsvector('simple', ${doc}), ${sql.join(vectors)})`;
      });
      await sql`INSERT INTO ${table} (rid, doc, ${columns}) VALUES ${sql.join(rows)} ON CONFLICT (rid) DO UPDATE SET ${updates}`.execute(db);
    }
    return;
  }
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

/** Runs of characters the unicode61 tokenizer keeps in tokens (letters, numbers, marks, private use). */
const TOKEN_RUN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/**
 * The distinct terms of a user's text query, in first-seen order: its token runs, one per index
 * token (`The`, `the` and `thé` are one term). The index would otherwise walk a term's postings
 * once per repetition: "the" 400 times cost a minute on 5,000 records.
 */
export function textQueryTerms(text: string): string[] {
  const terms = new Map<string, string>();
  for (const token of text.match(TOKEN_RUN) ?? []) {
    // Keyed by the index's form, but the token run itself is what reaches FTS5, which folds it as
    // it folds documents (NFD of a Hangul syllable, for one, is not what FTS5 stores).
    const key = indexTokens(token).join(' ');
    if (!terms.has(key)) terms.set(key, token);
  }
  return [...terms.values()];
}

/**
 * The FTS5 MATCH expression for a user's text query (contract §4.2: tokenised, case-insensitive,
 * every term must match), restricted to one index column when given. User text never reaches
 * FTS5 syntax: it is cut into token runs and each is quoted, so `"`, `*`, `AND`, `NEAR(` or
 * `col:` are plain words. Repeated terms appear once (textQueryTerms). Returns undefined when
 * the text has no tokens (matches nothing, as the reference's `match` with zero terms).
 */
export function buildTextMatch(text: string, column?: string): string | undefined {
  const terms = textQueryTerms(text);
  if (terms.length === 0) return undefined;
  const phrases = terms.map((term) => `"${term}"`).join(' ');
  return column ? `${column} : (${phrases})` : phrases;
}

/**
 * Text as the index sees it on PostgreSQL: the unicode61 token runs, lower case, without
 * diacritics, one space apart. The same function prepares documents and queries.
 */
export function searchTokens(text: string): string {
  return indexTokens(text).join(' ');
}

const ASCII = /^[\x00-\x7f]*$/;
/** TOKEN_RUN within lower-case ASCII text, where it is just letters and digits. */
const ASCII_TOKEN_RUN = /[a-z0-9]+/g;

/** The tokens the index holds for a text: unicode61 token runs, lower case, without diacritics. */
export function indexTokens(text: string): string[] {
  if (ASCII.test(text)) return text.toLowerCase().match(ASCII_TOKEN_RUN) ?? [];
  const tokens = text.match(TOKEN_RUN);
  if (!tokens) return [];
  return tokens.map((token) => (ASCII.test(token) ? token.toLowerCase() : token.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()));
}

/** How many tokens indexTokens finds in a text, without making them (the champion lists' first pass). */
export function countIndexTokens(text: string): number {
  if (!ASCII.test(text)) return text.match(TOKEN_RUN)?.length ?? 0;
  let count = 0;
  let inToken = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const lower = c | 0x20; // ASCII letters fold to lower case
    const tokenChar = (lower >= 0x61 && lower <= 0x7a) || (c >= 0x30 && c <= 0x39);
    if (tokenChar && !inToken) count += 1;
    inToken = tokenChar;
  }
  return count;
}

/** The column and terms of a buildTextMatch expression (terms are token runs: never quoted). */
export function parseTextMatch(textMatch: string): { column?: string; terms: string[] } {
  const restricted = /^(c\d+) : \((.*)\)$/s.exec(textMatch);
  const phrases = restricted ? restricted[2] : textMatch;
  const terms = [...phrases.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
  return { column: restricted?.[1], terms };
}

/** Whether a table exists (PostgreSQL; a draft dataset has no text index yet). */
export async function postgresTableExists(db: Kysely<Tables>, table: string): Promise<boolean> {
  const { rows } = await sql<{ found: string | null }>`SELECT to_regclass(${table}) AS found`.execute(db);
  return rows[0]?.found != null;
}
