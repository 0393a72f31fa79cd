import SQLite from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { drainSqliteTextQueue } from './text-index-drain.js';
import { attachTextIndexFile } from './text-index-file.js';

/**
 * Worker thread of text-indexer.ts (SQLite file): applies queue batches on its own connection,
 * reporting each batch's mark, until the queue is empty; then waits for a wake-up or the next poll.
 */
const { file, batch, pollMs } = workerData as { file: string; batch: number; pollMs: number };
const sqlite = new SQLite(file);
sqlite.pragma('busy_timeout = 5000');
attachTextIndexFile(sqlite, file);

let timer: NodeJS.Timeout | undefined;
function runSoon(delay = 0): void {
  clearTimeout(timer);
  timer = setTimeout(run, delay);
}

function run(): void {
  const drained = drainSqliteTextQueue(sqlite, batch);
  if (drained.changes > 0) {
    parentPort!.postMessage({ through: drained.through });
    // Back to the message queue between batches: a wake-up or stop is seen.
    return runSoon();
  }
  runSoon(pollMs);
}

parentPort!.on('message', (message: string) => {
  if (message === 'wake') runSoon();
  if (message === 'stop') {
    clearTimeout(timer);
    sqlite.close();
    parentPort!.close();
  }
});
run();
