import fs from 'node:fs';
import type SQLite from 'better-sqlite3';

/**
 * Checkpoints of the records' database off the event loop. A checkpoint copies the write-ahead
 * log into the database file and syncs it; SQLite runs one in the committing connection each time
 * the log passes 1,000 pages, which put the fsync of a bulk write on the server's event loop
 * (most of a commit's time at 6,000 records/s). The text indexer's thread runs them instead,
 * PASSIVE (never waiting for, or blocking, the server's writes); the server's connection keeps a
 * far higher bound of its own (open-database.ts) for when this thread is not running.
 */

/** Log pages past which a checkpoint is due. */
export const CHECKPOINT_PAGES = 1_000;
const PAGE_BYTES = 4_096;

/** Pages in the database's write-ahead log now (0 when there is none). */
export function walPages(databaseFile: string): number {
  try {
    return Math.floor(fs.statSync(`${databaseFile}-wal`).size / PAGE_BYTES);
  } catch {
    return 0;
  }
}

/** Copies what it can of the records' log into the file without waiting for anyone. */
export function checkpointRecords(sqlite: SQLite.Database): void {
  sqlite.pragma('main.wal_checkpoint(PASSIVE)');
}
