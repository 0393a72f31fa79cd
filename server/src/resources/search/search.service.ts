import type { Kysely } from 'kysely';
import type { SearchBody } from '@scholia/shared/contract';
import { requireAdminMember, requireMember } from '../../auth/access.js';
import { CodedUnprocessableError, RequestValidationError, UnprocessableError } from '../../errors.js';
import {
  listFields,
  listMetadataProperties,
  listQuestions,
  listVectorSettings,
} from '../../storage/repositories/dataset-settings.repository.js';
import {
  countSearchMatches,
  countTextHits,
  findDatasetRecord,
  fuzzyExpansions,
  findRecordsByRids,
  findRecordVector,
  listMatchingRids,
  metadataHasListValues,
  pageBySort,
  pageByTextScore,
  pageOfTextHits,
  sortRids,
  textIndexExists,
  textScoresOf,
  type RecordFilter,
  type RecordSearch,
} from '../../storage/repositories/search.repository.js';
import { textIndexColumn } from '../../storage/search/text-index.js';
import { SearchTimeBudgetExceeded, withinTimeBudget } from '../../storage/search/search-time-budget.js';
import { SEARCH_TIME_BUDGET_MS, TEXT_QUERY_MAX_CHARS, TEXT_QUERY_MAX_DEPTH, TEXT_QUERY_MAX_TERMS } from '../../lib/work-limits.js';
import { pageFromChampions, readyTextChampions } from '../../storage/search/text-champions.js';
import type { VersionedChampions } from '../../storage/search/text-champions-reader.js';
import { distinctQueryTerms, fuzzyTermsOf, matchDepth, oneWordOf, parseUserTextQuery, resolveTextQuery, type TextMatch } from '../../storage/search/text-match.js';
import { readyMetadataColumns } from '../../storage/search/metadata-columns.js';
import { readRecordSetVersion } from '../../storage/search/versioned-copies.js';
import { findSimilarRecords } from '../../storage/search/vector-index.js';
import { decodeVector } from '../../storage/vector-codec.js';
import type { DatasetRow, Tables, UserRow } from '../../storage/tables.js';
import { getDatasetForUserOrThrow } from '../datasets/dataset-lookup.js';
import { loadRecordRelations } from '../records/load-record-relations.js';
import type { RecordInclude } from '../records/record-include.js';
import { presentRecord, type RecordJson } from '../records/record.presenter.js';
import { recordVisibilityFor } from '../records/record-visibility.js';
import { EventLoopSlices } from '../../lib/event-loop-slices.js';
import { dialectOf, type Database } from '../../storage/dialect.js';
import { readMetadataSettings } from '../metadata-properties/metadata-settings.js';
import { searchWithColumns } from './column-search.js';
import { mergeFilters, mergeSort } from './merge-search-terms.js';
import {
  findTextField,
  findVectorSettings,
  resolveFilters,
  resolveSort,
  type DatasetSettings,
  type SearchPerspective,
} from './search-request.js';

type Db = Kysely<Tables>;

/** Contract §6.4: similarity results never go past this window. */
const SIMILARITY_WINDOW = 1000;

/** Text hits up to which a text + filter/sort search walks the hits rather than the filters' indexes. */
const TEXT_DRIVEN_MAX_HITS = 20_000;

export interface SearchOptions {
  /** `/me/datasets/{id}/records/search`: any member; only the caller's response counts and shows. */
  me: boolean;
  offset: number;
  limit: number;
  include: RecordInclude;
}

export interface SearchResult {
  items: { record: RecordJson; query_score: number | null }[];
  total: number;
}

interface PageEntry {
  rid: number;
  score: number | null;
}

/**
 * Record search (contract §4): text (FTS5, bm25), filters, sort, paging and vector similarity.
 * Default order: relevance for text and vector queries, insertion order otherwise. A long search
 * lets other requests go between its steps (lib/event-loop-slices.ts).
 */
export async function searchRecords(database: Database, user: UserRow, datasetId: string, body: SearchBody, options: SearchOptions): Promise<SearchResult> {
  const { db } = database;
  // The heavy statements (text, filters, sort) run off the event loop where the database allows.
  const reader = database.searchReads.readerFor(user.id);
  const { dataset, isMember } = await getDatasetForUserOrThrow(db, datasetId, user.id);
  if (options.me) await requireMember(db, user, dataset.workspace_id, isMember);
  else await requireAdminMember(db, user, dataset.workspace_id, isMember);

  const vectorQuery = body.query?.vector ?? undefined;
  if (vectorQuery) {
    const hasRecord = vectorQuery.record_id !== undefined && vectorQuery.record_id !== null;
    const hasValue = vectorQuery.value !== undefined && vectorQuery.value !== null;
    const loc = ['body', 'query', 'vector'];
    if (!hasRecord && !hasValue) throw RequestValidationError.valueError(loc, "Either 'record_id' or 'value' must be provided");
    if (hasRecord && hasValue) throw RequestValidationError.valueError(loc, "Only one of 'record_id' or 'value' can be provided");
  }

  // SQLite runs every statement on the event loop: its budget is the search's own time there (PostgreSQL's is statement_timeout).
  const slices = new EventLoopSlices(user.id, dialectOf(db) === 'sqlite' ? { budgetMs: SEARCH_TIME_BUDGET_MS, overBudget: searchOverBudget } : undefined);
  const settings = await loadSettings(db, dataset);
  // What the caller may see of the records; on the admin route every caller sees everything.
  const visibility = options.me ? recordVisibilityFor(user, settings) : {};
  const perspective: SearchPerspective = { userId: options.me ? user.id : undefined, seesValidation: user.role !== 'annotator' };

  let textMatch: TextMatch | undefined;
  let matchesNothing = false;
  const textQuery = body.query?.text ?? undefined;
  if (textQuery) {
    const field = textQuery.field ? findTextField(settings, textQuery.field) : undefined;
    const parsed = parseCheckedTextQuery(textQuery.q);
    // Writes reach the text index just after they commit: what was acknowledged before this search is found.
    if (parsed !== undefined) await database.textIndexer.caughtUp(dataset.id);
    if (parsed === undefined || !(await textIndexExists(db, dataset.id))) matchesNothing = true;
    else {
      const fuzzyTerms = fuzzyTermsOf(parsed);
      const expansions = fuzzyTerms.length === 0 ? new Map<string, string[]>() : await withinBudget(reader, (q) => fuzzyExpansions(q, dataset.id, fuzzyTerms));
      const query = resolveTextQuery(parsed, expansions);
      const columns = settings.fields.map((_, i) => `c${i}`);
      if (query === undefined) matchesNothing = true;
      else if (matchDepth(query) > TEXT_QUERY_MAX_DEPTH) {
        throw new UnprocessableError(`Text query nests its operators too deeply: ${matchDepth(query)} levels, at most ${TEXT_QUERY_MAX_DEPTH} are allowed.`);
      } else textMatch = { query, column: field ? textIndexColumn(settings.fields, field.name) : undefined, columns };
    }
  }

  // A hidden question or metadata property does not exist for the caller: filtering or sorting by
  // it gets the same 422 as an unknown name, so neither its name nor its values can be probed.
  const hidden = visibility.hiddenQuestions;
  const visibleKeys = visibility.metadataKeys;
  const searchable: DatasetSettings = {
    ...settings,
    questions: settings.questions.filter((q) => !hidden?.ids.has(q.id)),
    metadataProperties: settings.metadataProperties.filter((property) => !visibleKeys || visibleKeys.has(property.name)),
  };
  const numericMetadata = new Set(
    searchable.metadataProperties.filter((p) => readMetadataSettings(p.settings).type !== 'terms').map((p) => p.name),
  );
  const filters = await withListProbes(db, dataset.id, mergeFilters(resolveFilters(body, searchable, perspective), numericMetadata));
  const sort = mergeSort(resolveSort(body, searchable, perspective));
  const search: RecordSearch = { datasetId: dataset.id, filters, textMatch, sort };

  let page: PageEntry[];
  let total: number;
  if (vectorQuery) {
    const vectorSettings = findVectorSettings(settings, vectorQuery.name);
    let query: ArrayLike<number>;
    let excludeRid: number | undefined;
    if (vectorQuery.record_id) {
      const record = await findDatasetRecord(db, dataset.id, vectorQuery.record_id);
      if (!record) throw new UnprocessableError(`Record with id \`${vectorQuery.record_id}\` not found in dataset \`${dataset.id}\`.`);
      const blob = await findRecordVector(db, record.id, vectorSettings.id);
      if (!blob) {
        throw new CodedUnprocessableError(
          'missing_vector',
          `Record \`${record.id}\` does not have a vector for vector settings \`${vectorSettings.name}\``,
        );
      }
      query = decodeVector(blob);
      excludeRid = Number(record.rid);
    } else {
      query = vectorQuery.value!;
      if (query.length !== vectorSettings.dimensions) {
        throw new UnprocessableError(
          `Vector value for \`${vectorSettings.name}\` must have ${vectorSettings.dimensions} dimensions, got ${query.length}`,
        );
      }
    }
    const window = Math.min(options.offset + options.limit, SIMILARITY_WINDOW);
    if (matchesNothing || options.offset >= window) return { items: [], total: 0 };
    const restricted = textMatch !== undefined || filters.length > 0;
    const candidateRids = restricted ? await withinBudget(reader, async (q) => listMatchingRids(q, await withTextPlan(q, search))) : undefined;
    await slices.between();
    // The vectors are searched in memory, from a copy loaded once per version.
    const hits = await slices.outside(
      findSimilarRecords(db, vectorSettings, query, { limit: window, negate: vectorQuery.order === 'least_similar', excludeRid, candidateRids }),
    );
    await slices.between();
    // contract §4.2: query_score is (1 + cos) / 2, as the reference engine reports it
    const scored = hits.map((hit) => ({ rid: hit.rid, score: (1 + hit.cosine) / 2 }));
    total = scored.length;
    if (sort.length > 0) {
      const scoreOf = new Map(scored.map((hit) => [hit.rid, hit.score]));
      const ordered = await withinBudget(reader, (q) => sortRids(q, dataset.id, scored.map((hit) => hit.rid), sort));
      page = ordered.slice(options.offset, options.offset + options.limit).map((rid) => ({ rid, score: scoreOf.get(rid) ?? null }));
    } else {
      page = scored.slice(options.offset, options.offset + options.limit);
    }
  } else if (matchesNothing) {
    return { items: [], total: 0 };
  } else {
    ({ page, total } = await withinBudget(reader, (q) => pageOfMatches(q, db, search, settings, options, slices)));
  }

  await slices.between();
  const rows = await findRecordsByRids(db, page.map((entry) => entry.rid));
  await slices.between();
  const relations = await loadRecordRelations(db, rows, options.include, {
    responsesOfUserId: options.me ? user.id : undefined,
    validation: user.role !== 'annotator',
  });
  const scoreOf = new Map(page.map((entry) => [entry.rid, entry.score]));
  return {
    items: rows.map((row) => ({
      record: presentRecord(row, relations.get(row.id), { visibility }),
      query_score: scoreOf.get(Number(row.rid)) ?? null,
    })),
    total,
  };
}

/**
 * One page of a text / filter / sort search and its total: from the in-memory metadata columns
 * when they can answer (large SQLite datasets, text with metadata filters or sort), else in SQL.
 * An explicit sort leaves `query_score` null, as the reference engine does (a field sort skips
 * scoring); bm25 of a few chosen rows would cost a pass over every hit of each term.
 */
async function pageOfMatches(
  db: Db,
  /** The server's database, not a transaction: the in-memory copies are built from it on their own connections. */
  base: Db,
  search: RecordSearch,
  settings: DatasetSettings,
  options: SearchOptions,
  slices: EventLoopSlices,
): Promise<{ page: PageEntry[]; total: number }> {
  // Asked on every search, so a large dataset in use (its annotation queue is a search too) has
  // its columns and champion lists built by the time a search filters, sorts or looks for a word.
  const version = await readRecordSetVersion(db, search.datasetId);
  const propertyNames = settings.metadataProperties.map((property) => property.name);
  // Built by worker threads: their time is not this search's.
  const columns = await slices.outside(readyMetadataColumns(base, search.datasetId, version, propertyNames));
  const champions = await slices.outside(readyTextChampions(base, search.datasetId, version, settings.fields));
  const fromColumns = await searchWithColumns(db, search, columns, champions, options.offset, options.limit);
  const unsorted = search.sort.length === 0;
  const scored = (entries: { rid: number; score?: number }[]) => entries.map((entry) => ({ rid: entry.rid, score: unsorted ? (entry.score ?? null) : null }));
  if (fromColumns) return { page: scored(fromColumns.entries), total: fromColumns.total };
  if (search.textMatch !== undefined && unsorted && search.filters.length === 0) {
    const fromChampions = champions && (await pageOfOneTerm(db, search.datasetId, search.textMatch, champions, options));
    if (fromChampions) return fromChampions;
    const ranked = await pageOfTextHits(db, search.datasetId, search.textMatch, options.offset, options.limit);
    return { page: scored(ranked.page), total: ranked.total ?? (await totalFor(db, search, ranked.page.length, options)) };
  }
  // The columns hold every record at the current version: their length is the dataset's size.
  await slices.between();
  const planned = { ...(await withTextPlan(db, search)), recordCount: columns?.rids.length };
  const page = planned.textMatch !== undefined && unsorted
    ? await pageByTextScore(db, planned, options.offset, options.limit)
    : await pageBySort(db, planned, options.offset, options.limit);
  await slices.between();
  return { page: scored(page), total: await totalFor(db, planned, page.length, options) };
}

/**
 * A text query's tree (storage/search/text-query-parser.ts) within its bounds (lib/work-limits.ts):
 * the index walks every hit of each distinct term, so the work grows with their number; repeated
 * terms count once.
 */
function parseCheckedTextQuery(q: string) {
  if (q.length > TEXT_QUERY_MAX_CHARS) {
    throw new UnprocessableError(`Text query is too long: ${q.length} characters, at most ${TEXT_QUERY_MAX_CHARS} are allowed.`);
  }
  const parsed = parseUserTextQuery(q);
  const terms = distinctQueryTerms(parsed).length;
  if (terms > TEXT_QUERY_MAX_TERMS) {
    throw new UnprocessableError(`Text query has too many distinct terms: ${terms}, at most ${TEXT_QUERY_MAX_TERMS} are allowed.`);
  }
  return parsed;
}

/** Runs a search's heavy queries within SEARCH_TIME_BUDGET_MS; past it, a 422 telling how to narrow the search. */
async function withinBudget<T>(db: Db, work: (db: Db) => Promise<T>): Promise<T> {
  try {
    return await withinTimeBudget(db, SEARCH_TIME_BUDGET_MS, work);
  } catch (error) {
    if (!(error instanceof SearchTimeBudgetExceeded)) throw error;
    throw searchOverBudget();
  }
}

function searchOverBudget(): UnprocessableError {
  return new UnprocessableError(
    `The search exceeded its time budget of ${SEARCH_TIME_BUDGET_MS / 1000} s. Narrow it: fewer or rarer text terms, fewer filters or sort keys, or a smaller page.`,
  );
}

/**
 * A one-term text search's page from the dataset's champion lists, when they hold it: the page
 * and total without ranking every hit. PostgreSQL scores the page's few rows with ts_rank.
 */
async function pageOfOneTerm(db: Db, datasetId: string, textMatch: TextMatch, champions: VersionedChampions, options: SearchOptions) {
  const term = oneWordOf(textMatch);
  const found = term === undefined ? undefined : pageFromChampions(champions, term, options.offset, options.limit);
  if (!found) return undefined;
  const rids = found.page.map((hit) => hit.rid);
  const rankScores = champions.ranking === 'frequency' ? await textScoresOf(db, datasetId, textMatch, rids) : undefined;
  return { page: found.page.map((hit) => ({ rid: hit.rid, score: (rankScores ? rankScores.get(hit.rid) : hit.score) ?? null })), total: found.total };
}

/** A text search with filters or sort walks the text hits when they are few (limits.md §2: ~4 µs a hit). */
async function withTextPlan(db: Db, search: RecordSearch): Promise<RecordSearch> {
  if (search.textMatch === undefined || (search.filters.length === 0 && search.sort.length === 0)) return search;
  return { ...search, textDriven: (await countTextHits(db, search.datasetId, search.textMatch)) <= TEXT_DRIVEN_MAX_HITS };
}

/**
 * A short page already tells the total (offset + rows) when it holds rows; only a full page
 * or an empty page past the start needs the count query.
 */
async function totalFor(db: Db, search: RecordSearch, rows: number, options: SearchOptions): Promise<number> {
  if (rows > 0 && rows < options.limit) return options.offset + rows;
  if (rows === 0 && options.offset === 0) return 0;
  return countSearchMatches(db, search);
}

/** Read side by side: on PostgreSQL each is a round trip of its own, on a connection of its own. */
async function loadSettings(db: Db, dataset: DatasetRow): Promise<DatasetSettings> {
  const [fields, questions, metadataProperties, vectorSettings] = await Promise.all([
    listFields(db, dataset.id),
    listQuestions(db, dataset.id),
    listMetadataProperties(db, dataset.id),
    listVectorSettings(db, dataset.id),
  ]);
  return { dataset, fields, questions, metadataProperties, vectorSettings };
}

/** Terms filters on metadata look inside lists only where the dataset stores lists under that key. */
export async function withListProbes(db: Db, datasetId: string, filters: RecordFilter[]): Promise<RecordFilter[]> {
  const out: RecordFilter[] = [];
  for (const filter of filters) {
    if (filter.on === 'metadata' && filter.match.kind === 'terms') {
      out.push({ ...filter, listValues: await metadataHasListValues(db, datasetId, filter.name) });
    } else out.push(filter);
  }
  return out;
}
