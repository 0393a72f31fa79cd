import { sql, type Kysely } from 'kysely';
import { sqliteHandle } from '../open-database.js';
import { dialectOf } from '../dialect.js';
import type { Tables } from '../tables.js';
import { countRecords } from '../repositories/datasets.repository.js';

/**
 * One large SQLite dataset's metadata values as typed arrays in record (rid) order, so a search
 * that combines text with metadata filters or a metadata sort checks each text hit in memory.
 * In SQL each hit costs a record lookup (~4 µs, limits.md §2): 100k hits, ~0.5 s. Here the
 * hits' rids come from the FTS index alone and are matched against the columns in one pass.
 *
 * Columns are only ever used at the `record_set_versions` version they were read at (triggers
 * bump it on every record insert, delete and metadata change: migration 202611240400), so they
 * are never stale. A missing or outdated copy is loaded in the background, a page at a time so
 * requests keep flowing, and searches use SQL until it is ready.
 */

/** Every present value is a JSON number (missing or null: NaN). */
export interface NumberColumn {
  kind: 'number';
  values: Float64Array;
}
/** Every present value is a JSON string (missing or null: -1), coded by `codes`. */
export interface TextColumn {
  kind: 'text';
  values: Int32Array;
  codes: Map<string, number>;
}
/** Mixed, boolean or list values: searches on it stay in SQL. */
export interface OtherColumn {
  kind: 'other';
}
export type MetadataColumn = NumberColumn | TextColumn | OtherColumn;

export interface MetadataColumns {
  /** Ascending rids of the dataset's records; position i holds column values[i]. */
  rids: Float64Array;
  columns: Map<string, MetadataColumn>;
}

interface CacheEntry extends MetadataColumns {
  version: number;
  names: string;
  lastUsed: number;
}

/** Below this many records SQL answers fast enough and no copy is kept. */
let minRecords = 20_000;
/** Upper bound on cached records over all datasets; least recently used go first. */
const CACHE_BUDGET_RECORDS = 4_000_000;
/** A dataset written to without pause is not reloaded more often than this. */
let reloadCooldownMs = 30_000;
/** Records read per page while loading; the event loop runs between pages. */
const LOAD_PAGE_ROWS = 5_000;

const cache = new Map<string, CacheEntry>();
const loading = new Map<string, Promise<void>>();
const lastLoadStart = new Map<string, number>();

/**
 * The dataset's columns for these property names when a copy at the current version is in
 * memory; otherwise undefined, and a load starts in the background (SQLite, large datasets only).
 */
export async function readyMetadataColumns(db: Kysely<Tables>, datasetId: string, names: string[]): Promise<MetadataColumns | undefined> {
  if (dialectOf(db) !== 'sqlite' || (await countRecords(db, datasetId)) < minRecords) return undefined;
  const version = await readVersion(db, datasetId);
  const key = [...names].sort().join('\u0000');
  const cached = cache.get(datasetId);
  if (cached && cached.version === version && cached.names === key) {
    cached.lastUsed = performance.now();
    return cached;
  }
  startLoad(db, datasetId, names, key, version);
  return undefined;
}

/** Settles when no load is running (tests). */
export async function metadataColumnsSettled(): Promise<void> {
  while (loading.size > 0) await Promise.allSettled([...loading.values()]);
}

/** Drops every copy and forgets load times; sets the size from which copies are kept (tests). */
export function resetMetadataColumns(options: { minRecords: number; reloadCooldownMs: number }): void {
  cache.clear();
  lastLoadStart.clear();
  ({ minRecords, reloadCooldownMs } = options);
}

function startLoad(db: Kysely<Tables>, datasetId: string, names: string[], key: string, version: number): void {
  if (loading.has(datasetId)) return;
  const now = performance.now();
  if (now - (lastLoadStart.get(datasetId) ?? -Infinity) < reloadCooldownMs) return;
  lastLoadStart.set(datasetId, now);
  const load = loadColumns(db, datasetId, names)
    .then((columns) => {
      cache.set(datasetId, { ...columns, version, names: key, lastUsed: performance.now() });
      evictOverBudget(datasetId);
    })
    .catch(() => {
      // A failed load (database closing, dataset deleted) leaves SQL in charge; nothing to report.
    })
    .finally(() => loading.delete(datasetId));
  loading.set(datasetId, load);
}

async function readVersion(db: Kysely<Tables>, datasetId: string): Promise<number> {
  const { rows } = await sql<{ version: number }>`SELECT version FROM record_set_versions WHERE dataset_id = ${datasetId}`.execute(db);
  return Number(rows[0]?.version ?? 0);
}

/**
 * Reads every record's values for `names`, a page of rids at a time (the version was read
 * before). The metadata JSON is parsed here rather than taken apart in SQL: one parse per record
 * instead of two JSON calls per property, and JSON types (booleans, lists) stay distinguishable.
 */
async function loadColumns(db: Kysely<Tables>, datasetId: string, names: string[]): Promise<MetadataColumns> {
  const builders = names.map(() => new ColumnBuilder());
  const page = sqliteHandle(db)
    .prepare('SELECT rid, metadata FROM records WHERE dataset_id = ? AND rid > ? ORDER BY rid LIMIT ?')
    .raw();
  let rids = new Float64Array(1024);
  let count = 0;
  let after = -1;
  for (;;) {
    const rows = page.all(datasetId, after, LOAD_PAGE_ROWS) as [number, string | null][];
    if (rows.length === 0) break;
    if (count + rows.length > rids.length) rids = grown(rids, Math.max(rids.length * 2, count + rows.length));
    for (const [rid, metadata] of rows) {
      rids[count] = rid;
      const values = metadata ? (JSON.parse(metadata) as Record<string, unknown>) : {};
      for (let i = 0; i < names.length; i++) builders[i].push(count, values[names[i]]);
      count += 1;
    }
    after = rows[rows.length - 1][0];
    if (rows.length < LOAD_PAGE_ROWS) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { rids: rids.slice(0, count), columns: new Map(names.map((name, i) => [name, builders[i].build(count)])) };
}

/** Collects one property's values, deciding the column's kind from what it sees. */
class ColumnBuilder {
  private numbers = new Float64Array(1024);
  private texts = new Int32Array(1024);
  private codes = new Map<string, number>();
  private sawNumber = false;
  private sawText = false;
  private sawOther = false;

  push(position: number, value: unknown): void {
    if (position >= this.numbers.length) {
      this.numbers = grown(this.numbers, this.numbers.length * 2);
      this.texts = grown(this.texts, this.texts.length * 2);
    }
    this.numbers[position] = NaN;
    this.texts[position] = -1;
    if (value === undefined || value === null) return;
    if (typeof value === 'number') {
      this.sawNumber = true;
      this.numbers[position] = value;
    } else if (typeof value === 'string') {
      this.sawText = true;
      let code = this.codes.get(value);
      if (code === undefined) this.codes.set(value, (code = this.codes.size));
      this.texts[position] = code;
    } else {
      this.sawOther = true;
    }
  }

  build(count: number): MetadataColumn {
    if (this.sawOther || (this.sawNumber && this.sawText)) return { kind: 'other' };
    if (this.sawText) return { kind: 'text', values: this.texts.slice(0, count), codes: this.codes };
    return { kind: 'number', values: this.numbers.slice(0, count) };
  }
}

function grown<T extends Float64Array | Int32Array>(array: T, capacity: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(capacity);
  bigger.set(array);
  return bigger;
}

function evictOverBudget(keep: string): void {
  let total = 0;
  for (const entry of cache.values()) total += entry.rids.length;
  const byAge = [...cache.entries()].filter(([id]) => id !== keep).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
  for (const [id, entry] of byAge) {
    if (total <= CACHE_BUDGET_RECORDS) break;
    cache.delete(id);
    total -= entry.rids.length;
  }
}
