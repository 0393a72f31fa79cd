import type { Kysely } from 'kysely';
import { readTextHits, textScoresOf, type RecordSearch, type SortKey } from '../../storage/repositories/search.repository.js';
import type { MetadataColumn, MetadataColumns, VersionedColumns } from '../../storage/search/metadata-columns.js';
import { listedHits, positionsFromPostings } from '../../storage/search/text-champions.js';
import type { VersionedChampions } from '../../storage/search/text-champions-reader.js';
import { oneWordOf, type TextMatch } from '../../storage/search/text-match.js';
import type { Tables } from '../../storage/tables.js';
import { bestMatches, type Order } from '../../lib/best-matches.js';
import { filterTest, passes, passingCandidates, passingPage, passingPositions, type PositionTest } from './position-tests.js';

/**
 * Metadata filters and/or metadata sort, with or without text, on a large dataset, answered from
 * the text hits and the in-memory metadata columns (storage/search/metadata-columns.ts) with
 * exactly the SQL path's results: the same matches, total and order (missing values last, then
 * rid). Returns undefined when the search has another shape or the columns are not loaded
 * (`columns` undefined); the caller then runs the SQL path. A text search in sort order takes its
 * hits from the champion lists' postings when they were built at the columns' version (their
 * positions are then the columns' positions), else from the text index.
 */

export interface ColumnSearchPage {
  /** `score`: text relevance (higher = better) when the page is in relevance order. */
  entries: { rid: number; score?: number }[];
  total: number;
}

export async function searchWithColumns(
  db: Kysely<Tables>,
  search: RecordSearch,
  columns: VersionedColumns | undefined,
  champions: VersionedChampions | undefined,
  offset: number,
  limit: number,
): Promise<ColumnSearchPage | undefined> {
  if (!columns || (search.filters.length === 0 && search.sort.length === 0)) return undefined;
  if (!search.filters.every((f) => f.on === 'metadata') || !search.sort.every(sortableKey)) return undefined;
  const tests = search.filters.map((filter) => filterTest(filter, columns));
  const order = positionOrder(search.sort, columns);
  if (tests.some((test) => test === undefined) || order === undefined) return undefined;

  const checks = tests as PositionTest[];
  if (search.textMatch === undefined && search.sort.length === 0) {
    // Filters only, in record order: the page and the count, without listing every match.
    const { positions, total } = passingPage(columns.rids.length, checks, offset, limit);
    return { entries: positions.map((position) => ({ rid: columns.rids[position] })), total };
  }
  const byRelevance = search.textMatch !== undefined && search.sort.length === 0;
  const snapshot = champions !== undefined && champions.version === columns.version && champions.records === columns.rids.length ? champions : undefined;
  if (search.textMatch !== undefined && byRelevance && snapshot) {
    const fromChampions = await bestPassingChampions(db, search.datasetId, search.textMatch, columns, snapshot, checks, { offset, limit });
    if (fromChampions) return fromChampions;
  }
  const { positions, scores } = await matches(db, search, columns, snapshot, checks, byRelevance);
  // Matches (indexes into `positions`) by relevance then rid, or by the sort keys then rid; with
  // neither, `positions` already ascend by rid.
  const compare: Order = scores ? (a, b) => scores[b] - scores[a] || positions[a] - positions[b] : (a, b) => order(positions[a], positions[b]);
  const end = Math.min(offset + limit, positions.length);
  const page = scores || search.sort.length > 0 ? bestMatches(positions.length, compare, offset + limit).slice(offset) : Array.from({ length: Math.max(0, end - offset) }, (_, i) => offset + i);
  return { entries: page.map((match) => ({ rid: columns.rids[positions[match]], score: scores?.[match] })), total: positions.length };
}

/** The column positions that match the search's text (if any) and pass every test, ascending, with each one's relevance when asked. */
async function matches(
  db: Kysely<Tables>,
  search: RecordSearch,
  columns: VersionedColumns,
  /** Built from the columns' snapshot, when they were. */
  champions: VersionedChampions | undefined,
  tests: PositionTest[],
  byRelevance: boolean,
): Promise<{ positions: Int32Array; scores?: Float64Array }> {
  if (search.textMatch === undefined) return { positions: passingPositions(columns.rids.length, tests) };
  const candidates = champions && !byRelevance ? positionsFromPostings(champions, search.textMatch) : undefined;
  if (candidates) return { positions: passingCandidates(candidates, tests) };
  const hits = await readTextHits(db, search.datasetId, search.textMatch, byRelevance);
  return matchingPositions(hits, columns.rids, tests);
}

/**
 * A one-term search with filters in relevance order, from the term's champion list: the list holds
 * the term's best hits in the index's order, so the ones that pass the tests, in list order, are
 * the filtered search's best, and the page is exact when it lies within them. The total counts the
 * term's postings that pass. Undefined when the lists cannot tell (no list or postings for the
 * term, or a page past the list).
 */
async function bestPassingChampions(
  db: Kysely<Tables>,
  datasetId: string,
  textMatch: TextMatch,
  columns: VersionedColumns,
  champions: VersionedChampions,
  tests: PositionTest[],
  { offset, limit }: { offset: number; limit: number },
): Promise<ColumnSearchPage | undefined> {
  const term = oneWordOf(textMatch);
  const candidates = term === undefined ? undefined : positionsFromPostings(champions, textMatch);
  const entries = candidates && listedHits(champions, term!, (rid) => passes(tests, positionOfRid(columns.rids, rid)), offset, limit);
  if (!entries) return undefined;
  const total = passingCandidates(candidates, tests).length;
  if (entries.length < limit && offset + entries.length < total) return undefined;
  if (champions.ranking === 'bm25') return { entries, total };
  // ts_rank of the page's rows: the lists keep only its order.
  const scores = await textScoresOf(db, datasetId, textMatch, entries.map((entry) => entry.rid));
  return { entries: entries.map((entry) => ({ rid: entry.rid, score: scores.get(entry.rid) })), total };
}

/** Where a record is in the columns (the lists and the columns hold the same records). */
function positionOfRid(rids: Float64Array, rid: number): number {
  let low = 0;
  let high = rids.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (rids[middle] < rid) low = middle + 1;
    else high = middle;
  }
  return low;
}

function sortableKey(key: SortKey): boolean {
  return key.on === 'metadata' || (key.on === 'record' && key.column === 'inserted_at');
}

/**
 * The column positions of the hits that pass every test, with each match's relevance when the
 * hits carry it; both rid lists ascend, so one merge pass finds them.
 */
function matchingPositions(hits: { rids: Float64Array; scores?: Float64Array }, rids: Float64Array, tests: PositionTest[]): { positions: Int32Array; scores?: Float64Array } {
  const positions = new Int32Array(hits.rids.length);
  const scores = hits.scores ? new Float64Array(hits.rids.length) : undefined;
  let count = 0;
  let position = 0;
  for (let h = 0; h < hits.rids.length; h++) {
    const rid = hits.rids[h];
    while (position < rids.length && rids[position] < rid) position++;
    if (position === rids.length) break;
    // A hit the columns do not know was written after they were read; the version check makes that a race only.
    if (rids[position] !== rid || !passes(tests, position)) continue;
    positions[count] = position;
    if (scores) scores[count] = hits.scores![h];
    count++;
  }
  return { positions: positions.subarray(0, count), scores: scores?.subarray(0, count) };
}

/** The SQL ORDER BY: each key with missing values last in both directions, then rid (= position). */
function positionOrder(sort: SortKey[], columns: MetadataColumns): Order | undefined {
  const keys: { values: Float64Array | undefined; sign: number }[] = [];
  for (const key of sort) {
    const sign = key.order === 'desc' ? -1 : 1;
    if (key.on === 'record') {
      keys.push({ values: undefined, sign }); // inserted_at: rid order
      continue;
    }
    if (key.on !== 'metadata') return undefined;
    const column: MetadataColumn | undefined = columns.columns.get(key.name);
    // Text order differs between SQLite (bytes) and JS (UTF-16 units) for some characters.
    if (column?.kind !== 'number') return undefined;
    keys.push({ values: column.values, sign });
  }
  return (a, b) => {
    for (const { values, sign } of keys) {
      if (values === undefined) {
        if (a !== b) return sign * (a - b);
        continue;
      }
      const x = values[a];
      const y = values[b];
      if (Number.isNaN(x) || Number.isNaN(y)) {
        if (Number.isNaN(x) !== Number.isNaN(y)) return Number.isNaN(x) ? 1 : -1;
        continue;
      }
      if (x !== y) return sign * (x - y);
    }
    return a - b;
  };
}
