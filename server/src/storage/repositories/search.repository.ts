import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { bestMatches, type Order } from '../../lib/best-matches.js';
import { dialectOf, type DialectName } from '../dialect.js';
import type { RecordRow, Tables } from '../tables.js';
import { EVERY_RECORD_WORD, postgresTableExists, TEXT_SCHEMA, textIndexTable } from '../search/text-index.js';
import { fuzzyCandidates, looksForWords, type TextMatch } from '../search/text-match.js';
import { compilePostgresMatch } from '../search/text-query-postgres.js';
import { compileSqliteMatch } from '../search/text-query-sqlite.js';
import { jsonKeyPath } from './dataset-settings.repository.js';
import { countRecords } from './datasets.repository.js';
import { sqliteHandle } from '../open-database.js';
import { EventLoopSlices } from '../../lib/event-loop-slices.js';

type Db = Kysely<Tables>;

/**
 * SQL of record search (contract §4): filters, text, sort and paging over one dataset's
 * records, SQLite flavour. Every query starts from `records r` scoped by `r.dataset_id` (written
 * into the statement), so the (dataset_id, rid) index drives plain listings; metadata conditions
 * use exactly the expression of the per-property index `json_extract(metadata, '$."<name>"')`,
 * which holds that dataset's records only; text uses the
 * dataset's own FTS5 table, so no hit of another dataset is ever read (limits.md §2).
 *
 * PostgreSQL flavour (chosen per query builder by `dialectOf`): metadata and JSON values are
 * compared as jsonb (`metadata -> '<name>'`, the expression of the per-property index), text
 * hits come from the dataset's tsvector table ranked by ts_rank, and json_each becomes
 * jsonb_array_elements. Hits subqueries keep one convention: lower `score` = better.
 */

export type ValueMatch =
  | { kind: 'terms'; values: string[] }
  | { kind: 'range'; ge?: number | string; le?: number | string };

export type RecordColumn = 'id' | 'external_id' | 'inserted_at' | 'updated_at' | 'status';
export type SuggestionColumn = 'value' | 'score' | 'agent' | 'type';
export type ResponseStatusName = 'draft' | 'submitted' | 'discarded';

export type RecordFilter =
  /** `orValidated`: a validated record (Scholia extension, record_validations) matches too. */
  | { on: 'record'; column: RecordColumn; match: ValueMatch; orValidated?: boolean }
  /** `listValues`: some records hold a list under this key, so terms must look inside lists. */
  | { on: 'metadata'; name: string; match: ValueMatch; listValues: boolean }
  | { on: 'suggestion'; questionId: string; column: SuggestionColumn; match: ValueMatch }
  /** `userId`: only that user's response counts (`/me`); else anyone's. */
  | { on: 'response-value'; questionName: string; userId?: string; match: ValueMatch }
  | { on: 'response-status'; statuses: ResponseStatusName[]; pending: boolean; userId?: string };

export type SortKey = { order: 'asc' | 'desc' } & (
  | { on: 'record'; column: RecordColumn }
  | { on: 'metadata'; name: string }
  | { on: 'suggestion'; questionId: string; column: SuggestionColumn }
  | { on: 'response-value'; questionName: string; userId?: string }
  | { on: 'response-status'; userId?: string }
);

export interface RecordSearch {
  datasetId: string;
  filters: RecordFilter[];
  /** The text query (storage/search/text-match.ts); undefined = no text query. */
  textMatch?: TextMatch;
  sort: SortKey[];
  /**
   * Visit the text hits first and look each record up (set when the hits are few), instead of
   * letting the planner scan a filter's index and probe the hit list: with a broad metadata
   * range it picks the latter and reads tens of thousands of rows for a few hundred hits.
   */
  textDriven?: boolean;
  /** The dataset's record count when the caller already knows it (a count on PostgreSQL visits every record). */
  recordCount?: number;
}

export interface ScoredRid {
  rid: number;
  score: number;
}

/** Whether the dataset's text index exists (PostgreSQL: created at publish; SQLite: with the first records indexed). */
export async function textIndexExists(db: Db, datasetId: string): Promise<boolean> {
  if (dialectOf(db) === 'postgres') return postgresTableExists(db, textIndexTable(datasetId));
  const { rows } = await sql<{ found: number }>`
    SELECT 1 AS found FROM ${sql.raw(TEXT_SCHEMA)}.sqlite_master WHERE type = 'table' AND name = ${textIndexTable(datasetId)}`.execute(db);
  return rows.length > 0;
}

/**
 * Number of records matching filters and text. A "pending" response filter (no response) is
 * counted as all matches minus those with a response: both sides then run on covering indexes,
 * where NOT IN over the whole dataset would probe every record (the `/me` pending view).
 */
export async function countSearchMatches(db: Db, search: RecordSearch): Promise<number> {
  const d = dialectOf(db);
  const pendingIndex = search.filters.findIndex((f) => f.on === 'response-status' && f.pending && f.statuses.length === 0);
  if (pendingIndex >= 0) {
    const pending = search.filters[pendingIndex] as Extract<RecordFilter, { on: 'response-status' }>;
    const others = search.filters.filter((_, i) => i !== pendingIndex);
    const all = await countSearchMatches(db, { ...search, filters: others });
    if (all === 0) return 0;
    return all - (await countResponded(db, { ...search, filters: others }, pending.userId));
  }
  if (search.textMatch === undefined && search.filters.length === 0) return search.recordCount ?? countRecords(db, search.datasetId);
  if (search.textMatch !== undefined && search.filters.length === 0) {
    // Text only: the per-dataset FTS table alone answers, without touching records.
    return countTextHits(db, search.datasetId, search.textMatch);
  }
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${fromSql(search, d)} WHERE ${whereSql(search, 'set', d)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Records matching `search` that have a response (by that user): driven from the responses. */
async function countResponded(db: Db, search: RecordSearch, userId: string | undefined): Promise<number> {
  const byUser = userId === undefined ? sql`` : sql` AND rs.user_id = ${userId}`;
  const counted = userId === undefined ? sql`count(DISTINCT r.rid)` : sql`count(*)`;
  const d = dialectOf(db);
  const join = sql.raw(d === 'postgres' ? 'JOIN' : 'CROSS JOIN'); // SQLite: keep responses as the outer loop
  const { rows } = await sql<{ n: number }>`
    SELECT ${counted} AS n FROM responses rs ${join} records r ON r.id = rs.record_id
    WHERE rs.dataset_id = ${search.datasetId}${byUser} AND ${whereSql({ ...search, textDriven: false }, 'row', d)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Hits of a MATCH expression in the dataset's FTS table (no ranking: cheap). */
export async function countTextHits(db: Db, datasetId: string, textMatch: TextMatch): Promise<number> {
  if (dialectOf(db) === 'postgres') {
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM (${textHitsSql(datasetId, textMatch, 'postgres', false)}) h`.execute(db);
    return Number(rows[0]?.n ?? 0);
  }
  const fts = ftsTable(datasetId);
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${fts} WHERE ${fts} MATCH ${compileSqliteMatch(textMatch)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * One page of matches ranked by text relevance (bm25; higher score = better), insertion order
 * breaking ties. Without filters the FTS table answers alone; with filters each hit is joined.
 */
export async function pageByTextScore(db: Db, search: RecordSearch, offset: number, limit: number): Promise<ScoredRid[]> {
  const d = dialectOf(db);
  const hits = textHitsSql(search.datasetId, search.textMatch!, d, true);
  const query =
    search.filters.length === 0
      ? sql<ScoredRid>`SELECT h.rid, h.score FROM (${hits}) h ORDER BY h.score, h.rid LIMIT ${limit} OFFSET ${offset}`
      : sql<ScoredRid>`
          SELECT h.rid, h.score FROM (${hits}) h JOIN records r ON r.rid = h.rid
          WHERE ${whereSql({ ...search, textMatch: undefined }, 'row', d)}
          ORDER BY h.score, h.rid LIMIT ${limit} OFFSET ${offset}`;
  const { rows } = await query.execute(db);
  return rows.map((row) => ({ rid: Number(row.rid), score: -Number(row.score) }));
}

/**
 * A text-only page by relevance, with its total where it comes for free. PostgreSQL reads each
 * hit's id and rank in one pass and picks the page here: every hit is a visit to its row (GIN has
 * no index-only scans), and ranking then counting in SQL would visit every hit twice. SQLite ranks
 * in FTS5 and leaves the total to the caller (an index-only count, needed only for a full page).
 */
export async function pageOfTextHits(db: Db, datasetId: string, textMatch: TextMatch, offset: number, limit: number): Promise<{ page: ScoredRid[]; total?: number }> {
  if (dialectOf(db) !== 'postgres') return { page: await pageByTextScore(db, { datasetId, filters: [], textMatch, sort: [] }, offset, limit) };
  const { rids, scores } = await readTextHits(db, datasetId, textMatch, true);
  const byRank: Order = (a, b) => scores![b] - scores![a] || rids[a] - rids[b];
  const page = bestMatches(rids.length, byRank, offset + limit).slice(offset);
  return { page: page.map((hit) => ({ rid: rids[hit], score: scores![hit] })), total: rids.length };
}

/**
 * The text index's relevance (higher = better) of a few hits, by rid: a page picked elsewhere
 * (storage/search/text-champions.ts). PostgreSQL only: ts_rank needs just the row, where FTS5's
 * bm25 would read every hit of each term again for its weights.
 */
export async function textScoresOf(db: Db, datasetId: string, textMatch: TextMatch, rids: number[]): Promise<Map<number, number>> {
  if (rids.length === 0) return new Map();
  // No `@@` test: the rids are hits already, and with one the planner may scan every hit's row.
  const { rank } = compilePostgresMatch(textMatch);
  const score = rank === undefined ? sql`0` : sql`ts_rank(t.doc, ${rank}::tsquery)`;
  const { rows } = await sql<{ rid: number; score: number }>`
    SELECT t.rid, ${score} AS score FROM ${ftsTable(datasetId)} t WHERE t.rid IN (${sql.join(rids)})`.execute(db);
  return new Map(rows.map((row) => [Number(row.rid), Number(row.score)]));
}

/** One page of matching rids in sort order (insertion order when no sort, and as tie-break). */
export async function pageBySort(db: Db, search: RecordSearch, offset: number, limit: number): Promise<{ rid: number }[]> {
  const d = dialectOf(db);
  const { rows } = await sql<{ rid: number }>`
    SELECT r.rid FROM ${fromSql(search, d)} WHERE ${whereSql(search, 'row', d)}
    ORDER BY ${orderSql(search.sort, d)} LIMIT ${limit} OFFSET ${offset}`.execute(db);
  return rows.map((row) => ({ rid: Number(row.rid) }));
}

/** Every matching rid (the candidate set of a similarity search restricted by text/filters). */
export async function listMatchingRids(db: Db, search: RecordSearch): Promise<number[]> {
  const d = dialectOf(db);
  if (search.textMatch !== undefined && search.filters.length === 0) {
    const { rows } = await sql<{ rid: number }>`${textHitsSql(search.datasetId, search.textMatch, d, false)}`.execute(db);
    return rows.map((row) => Number(row.rid));
  }
  const { rows } = await sql<{ rid: number }>`SELECT r.rid FROM ${fromSql(search, d)} WHERE ${whereSql(search, 'set', d)}`.execute(db);
  return rows.map((row) => Number(row.rid));
}

/**
 * The dataset's text hits in rid order, with relevance (higher = better: bm25 on SQLite, ts_rank
 * on PostgreSQL) when asked, read from the text index alone (no record is visited) straight into
 * typed arrays: the input of the in-memory metadata column search (resources/search/column-search.ts).
 */
export async function readTextHits(db: Db, datasetId: string, textMatch: TextMatch, withScore: boolean): Promise<{ rids: Float64Array; scores?: Float64Array }> {
  if (dialectOf(db) === 'postgres') {
    const { rows } = await sql<{ rid: number; score?: number }>`
      SELECT h.* FROM (${textHitsSql(datasetId, textMatch, 'postgres', withScore)}) h ORDER BY h.rid`.execute(db);
    return {
      rids: Float64Array.from(rows, (row) => Number(row.rid)),
      scores: withScore ? Float64Array.from(rows, (row) => -Number(row.score)) : undefined,
    };
  }
  const fts = ftsName(datasetId);
  const handle = sqliteHandle(db);
  const match = compileSqliteMatch(textMatch);
  if (!withScore) {
    const rids = handle.prepare(`SELECT rowid FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rowid`).pluck().all(match) as number[];
    return { rids: Float64Array.from(rids) };
  }
  const score = looksForWords(textMatch.query) ? `bm25(${fts})` : '0';
  const rows = handle.prepare(`SELECT rowid, ${score} FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rowid`).raw().all(match) as [number, number][];
  const rids = new Float64Array(rows.length);
  const scores = new Float64Array(rows.length);
  rows.forEach(([rid, score], i) => {
    rids[i] = rid;
    scores[i] = -score;
  });
  return { rids, scores };
}

/** The given rids reordered by sort keys (similarity hits with an explicit `sort`). */
export async function sortRids(db: Db, datasetId: string, rids: number[], sort: SortKey[]): Promise<number[]> {
  if (rids.length === 0) return [];
  const { rows } = await sql<{ rid: number }>`
    SELECT r.rid FROM records r WHERE r.dataset_id = ${datasetId} AND r.rid IN (${sql.join(rids)})
    ORDER BY ${orderSql(sort, dialectOf(db))}`.execute(db);
  return rows.map((row) => Number(row.rid));
}

/** Records by rid, in the order of `rids` (missing ones skipped). */
export async function findRecordsByRids(db: Db, rids: number[]): Promise<Selectable<RecordRow>[]> {
  if (rids.length === 0) return [];
  const rows = await db.selectFrom('records').selectAll().where('rid', 'in', rids).execute();
  const byRid = new Map(rows.map((row) => [Number(row.rid), row]));
  return rids.map((rid) => byRid.get(rid)).filter((row): row is Selectable<RecordRow> => row !== undefined);
}

/**
 * Whether any record of the dataset stores a list under a metadata key. Probes the
 * expression index for values that are JSON arrays (text starting with `[`): microseconds.
 */
export async function metadataHasListValues(db: Db, datasetId: string, name: string): Promise<boolean> {
  if (dialectOf(db) === 'postgres') {
    const { rows } = await sql<{ found: number }>`
      SELECT 1 AS found FROM records r
      WHERE r.dataset_id = ${datasetId} AND jsonb_typeof(${metadataValue(name, 'postgres')}) = 'array' LIMIT 1`.execute(db);
    return rows.length > 0;
  }
  const value = metadataValue(name, 'sqlite');
  const { rows } = await sql<{ found: number }>`
    SELECT 1 AS found FROM records r
    WHERE ${sqliteDatasetIs(datasetId, true)} AND ${value} >= '[' AND ${value} < '\\'
      AND json_type(${metadataJson(name)}) = 'array'
    LIMIT 1`.execute(db);
  return rows.length > 0;
}

/** The record with that id in that dataset, if any (query record of a similarity search). */
export async function findDatasetRecord(db: Db, datasetId: string, recordId: string): Promise<{ id: string; rid: number } | undefined> {
  return db.selectFrom('records').select(['id', 'rid']).where('id', '=', recordId).where('dataset_id', '=', datasetId).executeTakeFirst();
}

export async function findRecordVector(db: Db, recordId: string, vectorSettingsId: string): Promise<Uint8Array | undefined> {
  const row = await db
    .selectFrom('vectors')
    .select('value')
    .where('record_id', '=', recordId)
    .where('vector_settings_id', '=', vectorSettingsId)
    .executeTakeFirst();
  return row?.value;
}

// ---------------------------------------------------------------------------------------------

function ftsTable(datasetId: string): RawBuilder<unknown> {
  return sql.raw(ftsName(datasetId));
}

/** The dataset's FTS table name, checked before it is ever spliced into SQL. */
function ftsName(datasetId: string): string {
  const name = textIndexTable(datasetId);
  if (!/^fts_[0-9a-fA-F]+$/.test(name)) throw new Error('invalid text index name');
  return name;
}

/**
 * The dataset's text hits `(rid[, score])` for a text query; lower score = better (SQLite bm25;
 * PostgreSQL minus ts_rank). The query reaches the index compiled (text-query-sqlite.ts,
 * text-query-postgres.ts): user text is never FTS5 or tsquery syntax.
 */
function textHitsSql(datasetId: string, textMatch: TextMatch, d: DialectName, withScore: boolean): RawBuilder<unknown> {
  const fts = ftsTable(datasetId);
  if (d === 'postgres') {
    const { condition, rank } = compilePostgresMatch(textMatch);
    const document = sql.raw(`t.${textMatch.column ?? 'doc'}`);
    const score = !withScore ? sql`` : rank === undefined ? sql`, 0 AS score` : sql`, -ts_rank(${document}, ${rank}::tsquery) AS score`;
    return sql`SELECT t.rid${score} FROM ${fts} t WHERE ${condition}`;
  }
  const score = !withScore ? sql`` : looksForWords(textMatch.query) ? sql`, bm25(${fts}) AS score` : sql`, 0 AS score`;
  return sql`SELECT rowid AS rid${score} FROM ${fts} WHERE ${fts} MATCH ${compileSqliteMatch(textMatch)}`;
}

/**
 * The dataset's words for fuzzy terms (`word~distance`): each one's closest words in the text
 * index, at most MAX_FUZZY_EXPANSIONS (storage/search/text-match.ts). Only words of a length
 * within reach are read out of the index's vocabulary.
 */
export async function fuzzyExpansions(db: Db, datasetId: string, terms: { word: string; distance: number }[]): Promise<Map<string, string[]>> {
  const expansions = new Map<string, string[]>();
  if (terms.length === 0) return expansions;
  const lengths = terms.map((term) => [...term.word].length);
  const shortest = Math.max(1, Math.min(...terms.map((term, i) => lengths[i] - term.distance)));
  const longest = Math.max(...terms.map((term, i) => lengths[i] + term.distance));
  const fts = ftsName(datasetId);
  let vocabulary: string[];
  if (dialectOf(db) === 'postgres') {
    const { rows } = await sql<{ word: string }>`
      SELECT word FROM ts_stat(${`SELECT doc FROM ${fts}`}) WHERE char_length(word) BETWEEN ${shortest} AND ${longest}`.execute(db);
    vocabulary = rows.map((row) => row.word);
  } else {
    // A vocabulary table of the index in the server connection's temp schema (nothing is stored;
    // a search reader's read-only connection could not create it).
    const handle = sqliteHandle(db);
    handle.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${fts}_vocabulary USING fts5vocab(${TEXT_SCHEMA}, ${fts}, 'row')`);
    vocabulary = handle
      .prepare(`SELECT term FROM temp.${fts}_vocabulary WHERE length(term) BETWEEN ? AND ? AND term <> ?`)
      .pluck()
      .all(shortest, longest, EVERY_RECORD_WORD) as string[];
  }
  // Each term walks the whole vocabulary: other requests are served between terms.
  const slices = new EventLoopSlices();
  for (const term of terms) {
    expansions.set(`${term.word}~${term.distance}`, fuzzyCandidates(term.word, term.distance, vocabulary));
    await slices.between();
  }
  return expansions;
}

/**
 * SQLite: `json_extract(r.metadata, '$."<name>"')` with the path inlined as a literal: a bound
 * path would not match the per-property expression index.
 * PostgreSQL: the jsonb value `NULLIF(r.metadata -> '<name>', 'null')` (JSON null reads as SQL
 * NULL, as json_extract does), the expression of the per-property index.
 */
function metadataValue(name: string, d: DialectName): RawBuilder<unknown> {
  if (d === 'postgres') return sql`NULLIF(r.metadata -> ${sql.lit(name)}, 'null'::jsonb)`;
  return sql`json_extract(r.metadata, ${sql.lit(jsonKeyPath(name))})`;
}

/**
 * SQLite: `r.dataset_id = '<id>'` with the id written into the statement. A metadata property's
 * index holds only its dataset's records (dataset-settings.repository.ts), and SQLite uses such
 * a partial index only for a statement that names the same dataset; a bound id would not.
 */
function sqliteDatasetIs(datasetId: string, onMetadata = false): RawBuilder<unknown> {
  const term = sql`r.dataset_id = ${sql.lit(datasetId)}`;
  // Without statistics SQLite takes `dataset_id =` on the (dataset_id, rid) index for the more
  // selective term and reads the whole dataset; told that most records match it, it reads the
  // metadata index's range instead (plain listings keep the (dataset_id, rid) index).
  return onMetadata ? sql`likelihood(${term}, 0.9)` : term;
}

/** The JSON text of a metadata value (for json_type / json_each). */
function metadataJson(name: string): RawBuilder<unknown> {
  return sql`(r.metadata -> ${jsonKeyPath(name)})`;
}

/**
 * How response conditions are written: `set` (the matching records' rids, computed once:
 * best when every record is visited, as in counts) or `row` (a per-record probe of the
 * (record_id, user_id) index: best when a page stops after a few rows).
 */
type Flavour = 'set' | 'row';

function fromSql(search: RecordSearch, d: DialectName): RawBuilder<unknown> {
  if (search.textMatch === undefined || !search.textDriven) return sql`records r`;
  const hits = textHitsSql(search.datasetId, search.textMatch, d, false);
  if (d === 'postgres') {
    // LATERAL keeps the hits as the outer loop; OFFSET 0 stops the planner from flattening it into a
    // join it may turn around: a scan of a broad filter, sorted, each row then probed against the hits.
    return sql`(${hits}) h CROSS JOIN LATERAL (SELECT * FROM records r0 WHERE r0.rid = h.rid OFFSET 0) r`;
  }
  // CROSS JOIN: SQLite keeps the left side as the outer loop.
  return sql`(${hits}) h CROSS JOIN records r ON r.rid = h.rid`;
}

function whereSql(search: RecordSearch, flavour: Flavour, d: DialectName): RawBuilder<unknown> {
  const onMetadata = search.filters.some((f) => f.on === 'metadata') || search.sort.some((key) => key.on === 'metadata');
  const conditions: RawBuilder<unknown>[] = [d === 'sqlite' ? sqliteDatasetIs(search.datasetId, onMetadata) : sql`r.dataset_id = ${search.datasetId}`];
  if (search.textMatch !== undefined && !search.textDriven) {
    conditions.push(sql`r.rid IN (SELECT h.rid FROM (${textHitsSql(search.datasetId, search.textMatch, d, false)}) h)`);
  }
  for (const filter of search.filters) conditions.push(filterSql(filter, search.datasetId, flavour, d));
  return sql.join(conditions, sql` AND `);
}

/** PostgreSQL: the elements of a jsonb list, or the value itself when it is no list (as json_each). */
function jsonbElements(value: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`jsonb_array_elements(CASE WHEN jsonb_typeof(${value}) = 'array' THEN ${value} ELSE jsonb_build_array(${value}) END)`;
}

function filterSql(filter: RecordFilter, datasetId: string, flavour: Flavour, d: DialectName): RawBuilder<unknown> {
  if (d === 'postgres') return filterSqlPostgres(filter, datasetId, flavour);
  switch (filter.on) {
    case 'record':
      return orValidatedSql(filter, matchSql(recordColumn(filter.column), filter.match));
    case 'metadata': {
      const value = metadataValue(filter.name, 'sqlite');
      const direct = matchSql(value, filter.match);
      const alternatives = [direct];
      if (filter.match.kind === 'terms') {
        // JSON booleans come out of json_extract as 1/0; terms compare string forms (`true`).
        for (const flag of ['true', 'false'] as const) {
          if (filter.match.values.includes(flag)) alternatives.push(sql`json_type(${metadataJson(filter.name)}) = ${flag}`);
        }
        if (filter.listValues) {
          alternatives.push(sql`(json_type(${metadataJson(filter.name)}) = 'array' AND EXISTS (
            SELECT 1 FROM json_each(${metadataJson(filter.name)}) j WHERE ${matchSql(sql`j.value`, filter.match)}))`);
        }
      }
      return alternatives.length === 1 ? direct : sql`(${sql.join(alternatives, sql` OR `)})`;
    }
    case 'suggestion': {
      const condition =
        filter.column === 'value' || filter.column === 'score'
          ? sql`EXISTS (SELECT 1 FROM json_each(s.${sql.raw(filter.column)}) j WHERE ${matchSql(sql`j.value`, filter.match)})`
          : matchSql(sql`s.${sql.raw(filter.column)}`, filter.match);
      return sql`EXISTS (SELECT 1 FROM suggestions s WHERE s.record_id = r.id AND s.question_id = ${filter.questionId} AND ${condition})`;
    }
    case 'response-value': {
      const path = `${jsonKeyPath(filter.questionName)}.value`;
      const byUser = filter.userId === undefined ? sql`` : sql` AND rs.user_id = ${filter.userId}`;
      return sql`EXISTS (SELECT 1 FROM responses rs, json_each(rs."values", ${path}) j
        WHERE rs.record_id = r.id${byUser} AND ${matchSql(sql`j.value`, filter.match)})`;
    }
    case 'response-status': {
      const alternatives: RawBuilder<unknown>[] = [];
      if (filter.statuses.length > 0) alternatives.push(respondedSql(filter, datasetId, flavour, filter.statuses));
      // pending = no response (by the caller on /me; by anyone otherwise)
      if (filter.pending) alternatives.push(sql`NOT ${respondedSql(filter, datasetId, flavour)}`);
      if (alternatives.length === 0) return sql`0`;
      return alternatives.length === 1 ? alternatives[0] : sql`(${sql.join(alternatives, sql` OR `)})`;
    }
  }
}

function orValidatedSql(filter: { orValidated?: boolean }, condition: RawBuilder<unknown>): RawBuilder<unknown> {
  if (!filter.orValidated) return condition;
  return sql`(${condition} OR EXISTS (SELECT 1 FROM record_validations v WHERE v.record_id = r.id))`;
}

/** filterSql on PostgreSQL: JSON values compare as jsonb (jsonMatchSql), text columns as text. */
function filterSqlPostgres(filter: RecordFilter, datasetId: string, flavour: Flavour): RawBuilder<unknown> {
  switch (filter.on) {
    case 'record':
      return orValidatedSql(filter, textMatchSql(recordColumn(filter.column), filter.match));
    case 'metadata': {
      const value = metadataValue(filter.name, 'postgres');
      const direct = jsonMatchSql(value, filter.match);
      if (filter.match.kind !== 'terms' || !filter.listValues) return direct;
      return sql`(${direct} OR (jsonb_typeof(${value}) = 'array' AND EXISTS (
        SELECT 1 FROM jsonb_array_elements(${value}) j(value) WHERE ${jsonMatchSql(sql`j.value`, filter.match)})))`;
    }
    case 'suggestion': {
      const condition =
        filter.column === 'value' || filter.column === 'score'
          ? sql`EXISTS (SELECT 1 FROM ${jsonbElements(sql`s.${sql.raw(filter.column)}`)} j(value) WHERE ${jsonMatchSql(sql`j.value`, filter.match)})`
          : textMatchSql(sql`s.${sql.raw(filter.column)}`, filter.match);
      return sql`EXISTS (SELECT 1 FROM suggestions s WHERE s.record_id = r.id AND s.question_id = ${filter.questionId} AND ${condition})`;
    }
    case 'response-value': {
      const byUser = filter.userId === undefined ? sql`` : sql` AND rs.user_id = ${filter.userId}`;
      const value = sql`(rs."values" -> ${filter.questionName} -> 'value')`;
      return sql`EXISTS (SELECT 1 FROM responses rs CROSS JOIN LATERAL ${jsonbElements(value)} j(value)
        WHERE rs.record_id = r.id${byUser} AND ${value} IS NOT NULL AND ${jsonMatchSql(sql`j.value`, filter.match)})`;
    }
    case 'response-status': {
      const alternatives: RawBuilder<unknown>[] = [];
      // EXISTS per record through the (record_id, user_id) index: the rid-set form of SQLite can
      // get a nested-loop plan on PostgreSQL before autovacuum has analysed fresh rows.
      if (filter.statuses.length > 0) alternatives.push(respondedSql(filter, datasetId, 'row', filter.statuses));
      if (filter.pending) alternatives.push(sql`NOT ${respondedSql(filter, datasetId, 'row')}`);
      if (alternatives.length === 0) return sql`FALSE`;
      return alternatives.length === 1 ? alternatives[0] : sql`(${sql.join(alternatives, sql` OR `)})`;
    }
  }
}

/** The forms a term may take: its text, and its number when it reads as one. */
function termForms(values: string[]): (string | number)[] {
  const forms: (string | number)[] = [];
  for (const term of values) {
    forms.push(term);
    if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(term)) forms.push(Number(term));
  }
  return forms;
}

/** PostgreSQL, jsonb value: terms equal a form as JSON (`true`/`false` also as booleans); ranges compare jsonb. */
function jsonMatchSql(value: RawBuilder<unknown>, match: ValueMatch): RawBuilder<unknown> {
  if (match.kind === 'terms') {
    const forms: unknown[] = termForms(match.values);
    for (const flag of ['true', 'false']) if (match.values.includes(flag)) forms.push(flag === 'true');
    if (forms.length === 0) return sql`FALSE`;
    return sql`${value} IN (${sql.join(forms.map((form) => sql`${JSON.stringify(form)}::jsonb`))})`;
  }
  const bounds: RawBuilder<unknown>[] = [];
  if (match.ge !== undefined) bounds.push(sql`${value} >= ${JSON.stringify(match.ge)}::jsonb`);
  if (match.le !== undefined) bounds.push(sql`${value} <= ${JSON.stringify(match.le)}::jsonb`);
  return bounds.length === 0 ? sql`TRUE` : sql.join(bounds, sql` AND `);
}

/** PostgreSQL, text column: terms equal a term's text; ranges compare text. */
function textMatchSql(value: RawBuilder<unknown>, match: ValueMatch): RawBuilder<unknown> {
  if (match.kind === 'terms') {
    if (match.values.length === 0) return sql`FALSE`;
    return sql`${value} IN (${sql.join(match.values)})`;
  }
  const bounds: RawBuilder<unknown>[] = [];
  if (match.ge !== undefined) bounds.push(sql`${value} >= ${String(match.ge)}`);
  if (match.le !== undefined) bounds.push(sql`${value} <= ${String(match.le)}`);
  return bounds.length === 0 ? sql`TRUE` : sql.join(bounds, sql` AND `);
}

/** "The record has a response (by that user) (with one of these statuses)". */
function respondedSql(
  filter: { userId?: string },
  datasetId: string,
  flavour: Flavour,
  statuses?: ResponseStatusName[],
): RawBuilder<unknown> {
  const byStatus = statuses ? sql` AND rs.status IN (${sql.join(statuses)})` : sql``;
  if (flavour === 'row') {
    const byUser = filter.userId === undefined ? sql`` : sql` AND rs.user_id = ${filter.userId}`;
    return sql`EXISTS (SELECT 1 FROM responses rs WHERE rs.record_id = r.id${byUser}${byStatus})`;
  }
  // rids through the unique index on records.id (covering for rid), so the outer scan needs no row
  const byUser = filter.userId === undefined ? sql`` : sql` AND rs.user_id = ${filter.userId}`;
  return sql`r.rid IN (SELECT rr.rid FROM responses rs JOIN records rr ON rr.id = rs.record_id
    WHERE rs.dataset_id = ${datasetId}${byUser}${byStatus})`;
}

/** Terms: the value equals one of the terms' string forms (or their numbers). Range: inclusive bounds. */
function matchSql(value: RawBuilder<unknown>, match: ValueMatch): RawBuilder<unknown> {
  if (match.kind === 'terms') {
    const forms: (string | number)[] = [];
    for (const term of match.values) {
      forms.push(term);
      if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(term)) forms.push(Number(term));
    }
    if (forms.length === 0) return sql`0`;
    return sql`${value} IN (${sql.join(forms)})`;
  }
  const bounds: RawBuilder<unknown>[] = [];
  if (match.ge !== undefined) bounds.push(sql`${value} >= ${match.ge}`);
  if (match.le !== undefined) bounds.push(sql`${value} <= ${match.le}`);
  return bounds.length === 0 ? sql`1` : sql.join(bounds, sql` AND `);
}

function recordColumn(column: RecordColumn): RawBuilder<unknown> {
  return sql.raw(`r.${column}`);
}

function sortValue(key: SortKey, d: DialectName): RawBuilder<unknown> {
  if (d === 'postgres') return sortValuePostgres(key);
  switch (key.on) {
    case 'record':
      // rid is insertion order, and indexed with dataset_id: `inserted_at` sorts by it.
      return key.column === 'inserted_at' ? sql`r.rid` : recordColumn(key.column);
    case 'metadata':
      return metadataValue(key.name, 'sqlite');
    case 'suggestion': {
      const column =
        key.column === 'value' || key.column === 'score' ? sql`json_extract(s.${sql.raw(key.column)}, '$')` : sql`s.${sql.raw(key.column)}`;
      return sql`(SELECT ${column} FROM suggestions s WHERE s.record_id = r.id AND s.question_id = ${key.questionId})`;
    }
    case 'response-value': {
      const byUser = key.userId === undefined ? sql`` : sql` AND rs.user_id = ${key.userId}`;
      return sql`(SELECT json_extract(rs."values", ${`${jsonKeyPath(key.questionName)}.value`}) FROM responses rs
        WHERE rs.record_id = r.id${byUser} ORDER BY rs.inserted_at LIMIT 1)`;
    }
    case 'response-status': {
      const byUser = key.userId === undefined ? sql`` : sql` AND rs.user_id = ${key.userId}`;
      return sql`(SELECT rs.status FROM responses rs WHERE rs.record_id = r.id${byUser} ORDER BY rs.inserted_at LIMIT 1)`;
    }
  }
}

/** sortValue on PostgreSQL: JSON values as jsonb, JSON null as SQL NULL (sorted last). */
function sortValuePostgres(key: SortKey): RawBuilder<unknown> {
  switch (key.on) {
    case 'record':
      return key.column === 'inserted_at' ? sql`r.rid` : recordColumn(key.column);
    case 'metadata':
      return metadataValue(key.name, 'postgres');
    case 'suggestion': {
      const column = key.column === 'value' || key.column === 'score' ? sql`NULLIF(s.${sql.raw(key.column)}, 'null'::jsonb)` : sql`s.${sql.raw(key.column)}`;
      return sql`(SELECT ${column} FROM suggestions s WHERE s.record_id = r.id AND s.question_id = ${key.questionId})`;
    }
    case 'response-value': {
      const byUser = key.userId === undefined ? sql`` : sql` AND rs.user_id = ${key.userId}`;
      return sql`(SELECT NULLIF(rs."values" -> ${key.questionName} -> 'value', 'null'::jsonb) FROM responses rs
        WHERE rs.record_id = r.id${byUser} ORDER BY rs.inserted_at LIMIT 1)`;
    }
    case 'response-status': {
      const byUser = key.userId === undefined ? sql`` : sql` AND rs.user_id = ${key.userId}`;
      return sql`(SELECT rs.status FROM responses rs WHERE rs.record_id = r.id${byUser} ORDER BY rs.inserted_at LIMIT 1)`;
    }
  }
}

/** Sort keys with missing values last in both directions (as the reference engine), then rid. */
function orderSql(sort: SortKey[], d: DialectName): RawBuilder<unknown> {
  const keys = sort.map((key) => {
    const value = sortValue(key, d);
    if (key.on === 'record' && key.column !== 'external_id') return sql`${value} ${sql.raw(key.order.toUpperCase())}`;
    return sql`${value} ${sql.raw(key.order.toUpperCase())} NULLS LAST`;
  });
  keys.push(sql`r.rid ASC`);
  return sql.join(keys, sql`, `);
}
