import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { postgresUrl, sqliteHandle } from '../open-database.js';
import type { Tables } from '../tables.js';
import type { SnapshotSource } from './dataset-snapshot.js';

/**
 * Child processes that build the in-memory search copies (metadata columns, text champions) off
 * the event loop, each on a connection of its own. A process rather than a worker thread: a
 * build reads a whole dataset (hundreds of MB of rows at 1M records), and what a thread allocates
 * natively stays in the server's malloc arenas after it ends; a process gives it all back.
 */

/** Where a build reads this database from; undefined for an in-memory SQLite database (no file to open). */
export function snapshotSourceOf(db: Kysely<Tables>): SnapshotSource | undefined {
  if (dialectOf(db) === 'postgres') return { kind: 'postgres', url: postgresUrl(db) };
  const sqlite = sqliteHandle(db);
  return sqlite.memory ? undefined : { kind: 'sqlite', file: sqlite.name };
}

/**
 * Runs `<name>.worker` of this folder, sends it `input` and settles with its one reply (typed
 * arrays and maps cross intact: advanced serialization). The compiled server runs the JS file;
 * from the sources (tests, `npm run dev`) the process loads the TypeScript loader first.
 */
export function runSearchWorker<T>(name: string, input: unknown): Promise<T> {
  const compiled = !import.meta.url.endsWith('.ts');
  const file = fileURLToPath(new URL(`./${name}.worker.${compiled ? 'js' : 'ts'}`, import.meta.url));
  const child = fork(file, [], { serialization: 'advanced', execArgv: compiled ? [] : ['--import', 'tsx'] });
  child.send(input as object);
  return new Promise((resolve, reject) => {
    child.once('message', (result: T) => resolve(result));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${name} worker exited with ${code}`)));
  });
}
