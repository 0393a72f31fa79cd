import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { sqliteHandle } from '../open-database.js';
import type { Tables } from '../tables.js';
import { runSearchWorker, snapshotSourceOf } from './search-worker.js';
import { bm25Weight, DEFAULT_CHAMPION_LIMITS, type ChampionLimits } from './text-champions-builder.js';
import { readSqliteTextChampions, type ChampionsRequest, type VersionedChampions } from './text-champions-reader.js';
import type { TextIndexField } from './text-index.js';
import { allWordsOf, type TextMatch } from './text-match.js';
import { decodePostings, intersectPositions } from './text-postings.js';
import { VersionedCopies, type CopyPolicy } from './versioned-copies.js';

/**
 * Champion lists of a large dataset: for each term in thousands of its records, the records that
 * rank best for it, so a one-term search reads its page from memory. The text index ranks every
 * hit of a query to find the best few (FTS5's bm25 ~0.6 µs a hit; PostgreSQL visits each hit's
 * row for ts_rank): 100k+ hits cost ~70 ms on SQLite and ~0.5 s on PostgreSQL at 1M records.
 * The lists are built off the event loop from one snapshot of the records
 * (text-champions-builder.ts) and kept as versioned-copies.ts says.
 */

/**
 * Upper bound on the bytes of the lists kept over all datasets: a 1M-record dataset of the scale
 * bench needs ~15 MiB of champions and ~34 MiB of postings.
 */
const CACHE_BUDGET_BYTES = 128 * 2 ** 20;

/** Set by tests; otherwise the defaults of the dialect's ranking. */
let limits: ChampionLimits | undefined;
const copies = new VersionedCopies<VersionedChampions>({ minRecords: 20_000, rebuildCooldownMs: 60_000, buildTimeFactor: 10, quietAfterMs: 60_000 }, CACHE_BUDGET_BYTES, sizeOf);

export interface ChampionHit {
  rid: number;
  /** The text index's own relevance where the lists know it (bm25); undefined on PostgreSQL. */
  score?: number;
}

/** The dataset's champion lists when a copy at `version` (its current one) is in memory; otherwise undefined, and a build starts. */
export function readyTextChampions(db: Kysely<Tables>, datasetId: string, version: number, fields: TextIndexField[]): Promise<VersionedChampions | undefined> {
  if (fields.length === 0) return Promise.resolve(undefined);
  const indexed = fields.map(({ name, settings }) => ({ name, settings }));
  const ranking = dialectOf(db) === 'postgres' ? 'frequency' : 'bm25';
  const request: ChampionsRequest = { datasetId, fields: indexed, ranking, limits: limits ?? DEFAULT_CHAMPION_LIMITS[ranking] };
  const shape = JSON.stringify(indexed);
  return copies.ready(db, datasetId, version, shape, () => buildChampions(db, request));
}

/**
 * One page of a search for `term` alone, best first, and its total; undefined when the lists do
 * not hold the term (it is in few records: the index is fast) or the page lies past its list.
 */
export function pageFromChampions(champions: VersionedChampions, term: string, offset: number, limit: number): { page: ChampionHit[]; total: number } | undefined {
  const list = champions.terms.get(term);
  if (!list || offset + limit > list.count) return undefined;
  return { page: listedHits(champions, term, () => true, offset, limit)!, total: list.hits };
}

/**
 * The term's listed hits, best first, that `accept` takes (by rid), skipping the first `skip` of
 * those: at most `limit` of them. Undefined when the lists do not hold the term.
 */
export function listedHits(champions: VersionedChampions, term: string, accept: (rid: number) => boolean, skip: number, limit: number): ChampionHit[] | undefined {
  const list = champions.terms.get(term);
  if (!list) return undefined;
  const weight = champions.ranking === 'bm25' ? bm25Weight(champions.records, list.hits) : undefined;
  const hits: ChampionHit[] = [];
  let accepted = 0;
  for (let i = list.start; i < list.start + list.count && hits.length < limit; i++) {
    const rid = champions.rids[i];
    if (!accept(rid) || accepted++ < skip) continue;
    hits.push({ rid, score: weight === undefined ? undefined : weight * champions.keys[i] });
  }
  return hits;
}

/**
 * The records holding every term of `textMatch`, as ascending positions in the snapshot the lists
 * were built from (records in rid order), from the terms' postings; undefined when a term has
 * none (it is in few records, or the lists keep no postings), the match names one field or it is
 * more than words that must all be there.
 */
export function positionsFromPostings(champions: VersionedChampions, textMatch: TextMatch): Int32Array | undefined {
  const terms = allWordsOf(textMatch);
  if (terms === undefined) return undefined;
  const lists: Int32Array[] = [];
  for (const term of terms) {
    const list = champions.terms.get(term);
    if (!list?.postings) return undefined;
    lists.push(decodePostings(champions.postings, list.postings, list.hits));
  }
  return intersectPositions(lists);
}

/** Settles when no build is running (tests). */
export function textChampionsSettled(): Promise<void> {
  return copies.settled();
}

/** Drops every copy under a new policy and list limits (tests). */
export function resetTextChampions(policy: CopyPolicy, listLimits?: ChampionLimits): void {
  copies.reset(policy);
  limits = listLimits;
}

function sizeOf(champions: VersionedChampions): number {
  return champions.rids.byteLength + champions.keys.byteLength + champions.postings.byteLength;
}

/** Built in a worker thread on its own connection; an in-memory SQLite database (no file) is read here. */
async function buildChampions(db: Kysely<Tables>, request: ChampionsRequest): Promise<VersionedChampions> {
  const source = snapshotSourceOf(db);
  if (!source) return readSqliteTextChampions(sqliteHandle(db), request);
  return runSearchWorker<VersionedChampions>('text-champions', { source, request });
}
