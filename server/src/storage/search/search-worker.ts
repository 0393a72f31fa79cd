import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../lib/worker-threads.js';
import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { postgresUrl, sqliteHandle } from '../open-database.js';
import type { Tables } from '../tables.js';
import type { SnapshotSource } from './dataset-snapshot.js';

/**
 * Worker threads that build the in-memory search copies (metadata columns, text champions) off
 * the event loop, each on a connection of its own. Threads rather than processes: the result's
 * typed arrays move to the server without a copy (a process would send them through a pipe, and
 * the chunks and copies of a million-record copy stayed in the server's malloc heap: ~90 MiB more
 * RSS at rest on PostgreSQL at 1M records, in the 1M-record bench).
 */

/** Where a worker reads this database from; undefined for an in-memory SQLite database (no file to open). */
export function snapshotSourceOf(db: Kysely<Tables>): SnapshotSource | undefined {
  if (dialectOf(db) === 'postgres') return { kind: 'postgres', url: postgresUrl(db) };
  const sqlite = sqliteHandle(db);
  return sqlite.memory ? undefined : { kind: 'sqlite', file: sqlite.name };
}

/** Runs `<name>.worker` of this folder with `input` and settles with its one message. */
export function runSearchWorker<T>(name: string, input: unknown): Promise<T> {
  const worker = startSearchWorker(name, input);
  return new Promise((resolve, reject) => {
    worker.once('message', (result: T) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`${name} worker exited with ${code}`)));
  });
}

export const startSearchWorker = (name: string, workerData: unknown): Worker => startWorkerThread(import.meta.url, name, workerData);
