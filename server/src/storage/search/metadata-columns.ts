import type { Kysely } from 'kysely';
import { sqliteHandle } from '../open-database.js';
import type { Tables } from '../tables.js';
import { readSqliteMetadataColumns, type VersionedColumns } from './metadata-columns-reader.js';
import { runSearchWorker, snapshotSourceOf } from './search-worker.js';
import { VersionedCopies, type CopyPolicy } from './versioned-copies.js';

export type { MetadataColumn, MetadataColumns, VersionedColumns } from './metadata-columns-reader.js';

/**
 * One large dataset's metadata values as typed arrays in record (rid) order, so a search that
 * filters or sorts by metadata checks each candidate in memory. In SQL each text hit costs a
 * record lookup (~4 µs, limits.md §2: 100k hits, ~0.5 s), and on PostgreSQL a count of a broad
 * metadata range visits every matching row. Here the hits' rids come from the text index alone
 * and are matched against the columns in one pass. Kept and refreshed as versioned-copies.ts says.
 */

/** Upper bound on cached records over all datasets. */
const CACHE_BUDGET_RECORDS = 2_000_000;

const copies = new VersionedCopies<VersionedColumns>({ minRecords: 20_000, rebuildCooldownMs: 30_000, buildTimeFactor: 10, quietAfterMs: 30_000 }, CACHE_BUDGET_RECORDS, (columns) => columns.rids.length);

/**
 * The dataset's columns for these property names when a copy at `version` (its current one) is in
 * memory; otherwise undefined, and a load starts in the background (large datasets only).
 */
export function readyMetadataColumns(db: Kysely<Tables>, datasetId: string, version: number, names: string[]): Promise<VersionedColumns | undefined> {
  return copies.ready(db, datasetId, version, [...names].sort().join('\u0000'), () => loadColumns(db, datasetId, names));
}

/** Settles when no load is running (tests). */
export function metadataColumnsSettled(): Promise<void> {
  return copies.settled();
}

/** Drops every copy and forgets check times; sets the size from which copies are kept (tests). */
export function resetMetadataColumns(options: { minRecords: number; reloadCooldownMs: number }): void {
  copies.reset({ minRecords: options.minRecords, rebuildCooldownMs: options.reloadCooldownMs } satisfies CopyPolicy);
}

/**
 * Reads the columns off the event loop: a worker thread with its own read-only connection (on
 * SQLite, WAL lets it read while the server writes), so a million records (~2.5 s of reading and
 * parsing) delay no request. An in-memory SQLite database has no file a worker could open and is
 * read here.
 */
async function loadColumns(db: Kysely<Tables>, datasetId: string, names: string[]): Promise<VersionedColumns> {
  const source = snapshotSourceOf(db);
  if (!source) return readSqliteMetadataColumns(sqliteHandle(db), datasetId, names);
  return runSearchWorker<VersionedColumns>('metadata-columns', { source, datasetId, names });
}
