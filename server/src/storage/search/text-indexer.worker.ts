import SQLite from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { drainSqliteTextQueue } from './text-index-drain.js';
import { attachTextIndexFile } from './text-index-file.js';
import { checkpointRecords } from './wal-checkpoint.js';

/**
 * Worker thread of text-indexer.ts (SQLite file): applies queue batches on its own connection,
 * reporting each batch's mark, until the queue is empty; then waits for a wake-up or the next poll.
 * Between batches it also checkpoints the records' write-ahead log (wal-checkpoint.ts).
 * `wake` (a write) gathers for a moment first; `now` (a search waiting) does not.
 */
/** Pause before a failed batch is tried again. */
const RETRY_MS = 200;
/** How often the records' log is checkpointed while the thread runs. */
const CHECKPOINT_INTERVAL_MS = 200;

const { file, batch, pollMs } = workerData as { file: string; batch: number; pollMs: number };
const sqlite = new SQLite(file);
sqlite.pragma('busy_timeout = 5000');
attachTextIndexFile(sqlite, file);

let timer: NodeJS.Timeout | undefined;
function runSoon(delay = 0): void {
  clearTimeout(timer);
  timer = setTimeout(run, delay);
}

let gathering = false;
let checkpointed = 0;

function run(): void {
  gathering = false;
  let drained;
  try {
    drained = drainSqliteTextQueue(sqlite, batch);
    if (Date.now() - checkpointed >= CHECKPOINT_INTERVAL_MS) {
      checkpointRecords(sqlite);
      checkpointed = Date.now();
    }
  } catch (error) {
    // The batch rolled back as a whole (nothing half-applied): tried again shortly. A busy file
    // (another connection changing its schema, or writing since this batch's snapshot:
    // SQLITE_BUSY_SNAPSHOT) passes; anything else is reported each time.
    const { code, message } = error as { code?: string; message?: string };
    if (!code?.startsWith('SQLITE_BUSY')) parentPort!.postMessage({ error: `${code ?? ''} ${message ?? String(error)}` });
    return runSoon(RETRY_MS);
  }
  if (drained.changes > 0) {
    parentPort!.postMessage({ through: drained.through });
    // Back to the message queue between batches: a wake-up or stop is seen.
    return runSoon();
  }
  runSoon(pollMs);
}

/** A wake-up after a write waits this long for more writes: fewer, larger batches (each commit is one FTS5 segment to merge later). */
const GATHER_MS = 100;

parentPort!.on('message', (message: string) => {
  if (message === 'now') runSoon();
  if (message === 'wake' && !gathering) {
    gathering = true;
    runSoon(GATHER_MS);
  }
  if (message === 'stop') {
    clearTimeout(timer);
    sqlite.close();
    parentPort!.close();
  }
});
run();
