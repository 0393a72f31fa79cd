import { Worker } from 'node:worker_threads';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { postgresUrl, sqliteHandle } from '../open-database.js';
import { hasAtLeastRecords } from '../repositories/datasets.repository.js';
import type { Tables } from '../tables.js';
import { readSqliteMetadataColumns, type ColumnsSource, type MetadataColumns, type VersionedColumns } from './metadata-columns-reader.js';

export type { MetadataColumn, MetadataColumns } from './metadata-columns-reader.js';

/**
 * One large dataset's metadata values as typed arrays in record (rid) order, so a search that
 * filters or sorts by metadata checks each candidate in memory. In SQL each text hit costs a
 * record lookup (~4 µs, limits.md §2: 100k hits, ~0.5 s), and on PostgreSQL a count of a broad
 * metadata range visits every matching row. Here the hits' rids come from the text index alone
 * and are matched against the columns in one pass.
 *
 * Columns are only ever used at the `record_set_versions` version they were read at (triggers
 * bump it on every record insert, delete and metadata change: migrations 202611240400 for SQLite,
 * 202611240500 for PostgreSQL, where the bump commits with the write), so they are never stale,
 * also when another server process wrote. A missing or outdated copy is loaded in the
 * background (a worker thread), and searches use SQL until it is ready.
 */

interface CacheEntry extends VersionedColumns {
  names: string;
  lastUsed: number;
}

/** Below this many records SQL answers fast enough and no copy is kept. */
let minRecords = 20_000;
/** Upper bound on cached records over all datasets; least recently used go first. */
const CACHE_BUDGET_RECORDS = 2_000_000;
/** A dataset is sized, and (re)loaded, no more often than this: e.g. while it is written without pause. */
let reloadCooldownMs = 30_000;

const cache = new Map<string, CacheEntry>();
const loading = new Map<string, Promise<void>>();
const lastCheck = new Map<string, number>();

/**
 * The dataset's columns for these property names when a copy at the current version is in
 * memory; otherwise undefined, and a load starts in the background (large datasets only).
 */
export async function readyMetadataColumns(db: Kysely<Tables>, datasetId: string, names: string[]): Promise<MetadataColumns | undefined> {
  const key = [...names].sort().join('\u0000');
  const cached = cache.get(datasetId);
  if (cached && cached.names === key && cached.version === (await readVersion(db, datasetId))) {
    cached.lastUsed = performance.now();
    return cached;
  }
  if (checkDue(datasetId) && (await hasAtLeastRecords(db, datasetId, minRecords))) startLoad(db, datasetId, names, key);
  return undefined;
}

/** Settles when no load is running (tests). */
export async function metadataColumnsSettled(): Promise<void> {
  while (loading.size > 0) await Promise.allSettled([...loading.values()]);
}

/** Drops every copy and forgets check times; sets the size from which copies are kept (tests). */
export function resetMetadataColumns(options: { minRecords: number; reloadCooldownMs: number }): void {
  cache.clear();
  lastCheck.clear();
  ({ minRecords, reloadCooldownMs } = options);
}

function checkDue(datasetId: string): boolean {
  if (loading.has(datasetId)) return false;
  const now = performance.now();
  if (now - (lastCheck.get(datasetId) ?? -Infinity) < reloadCooldownMs) return false;
  lastCheck.set(datasetId, now);
  return true;
}

function startLoad(db: Kysely<Tables>, datasetId: string, names: string[], key: string): void {
  const load = loadColumns(db, datasetId, names)
    .then((columns) => {
      cache.set(datasetId, { ...columns, names: key, lastUsed: performance.now() });
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
 * Reads the columns off the event loop: a worker thread with its own read-only connection (on
 * SQLite, WAL lets it read while the server writes), so a million records (~2.5 s of reading and
 * parsing) delay no request. An in-memory SQLite database has no file a worker could open and is
 * read here.
 */
async function loadColumns(db: Kysely<Tables>, datasetId: string, names: string[]): Promise<VersionedColumns> {
  let source: ColumnsSource;
  if (dialectOf(db) === 'postgres') {
    source = { kind: 'postgres', url: postgresUrl(db) };
  } else {
    const sqlite = sqliteHandle(db);
    if (sqlite.memory) return readSqliteMetadataColumns(sqlite, datasetId, names);
    source = { kind: 'sqlite', file: sqlite.name };
  }
  const worker = startWorker({ source, datasetId, names });
  return new Promise((resolve, reject) => {
    worker.once('message', (columns: VersionedColumns) => resolve(columns));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`metadata columns worker exited with ${code}`)));
  });
}

/**
 * The compiled server starts the worker's JS file. From the sources (tests, `npm run dev`) the
 * worker first registers the TypeScript loader: Node 20 workers ignore `--import` in execArgv.
 */
function startWorker(workerData: { source: ColumnsSource; datasetId: string; names: string[] }): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./metadata-columns.worker.js', import.meta.url), { workerData });
  const entry = new URL('./metadata-columns.worker.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
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
