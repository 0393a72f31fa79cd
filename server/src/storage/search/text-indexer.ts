import type SQLite from 'better-sqlite3';
import type { Worker } from 'node:worker_threads';
import { processLogger } from '../../lib/process-log.js';
import { stopWorkerThread } from '../../lib/worker-threads.js';
import { startSearchWorker } from './search-worker.js';
import { drainSqliteTextQueue, readThrough } from './text-index-drain.js';
import { CHECKPOINT_PAGES, walPages } from './wal-checkpoint.js';

/** Its failures are the process's, not a request's: pino lines like the rest of the log. */
const log = processLogger();

/**
 * Applies the text index queue (text-index-queue.ts) in the background, so a write costs its
 * rows and not its words. A text search first waits until the changes queued for its dataset
 * before it arrived are in the index (at most TEXT_INDEX_WAIT_MS): a client that writes and then
 * searches finds what it wrote.
 * - SQLite file: a worker thread on its own connection writes the text index file
 *   (text-index-file.ts); the server's connection only reads it (writes trim the queue). The
 *   thread also checkpoints the records' write-ahead log (wal-checkpoint.ts).
 * - SQLite in memory (tests): the same batches on the server's connection, between requests.
 * PostgreSQL indexes in the write (text-index-writes.ts) and needs none.
 */
export interface TextIndexer {
  /** Changes were queued: index them now rather than at the next poll. */
  wake(): void;
  /** Settles once the dataset's changes queued before the call are searchable, or after TEXT_INDEX_WAIT_MS. */
  caughtUp(datasetId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The longest a search waits for queued changes of its dataset. They are indexed within a second
 * or two of the write (docs/performance.md); this bound only matters when the indexer cannot keep
 * up (a start-up rebuild, an overloaded host), where a late answer beats one missing records.
 */
export const TEXT_INDEX_WAIT_MS = 10_000;
/** How often an idle indexer looks for changes queued by another process (an external job worker). */
const POLL_MS = 250;
/**
 * A thread with nothing to index for this long is stopped: its heap and connection are released
 * while the server is at rest (tens of MiB after a large ingestion), and the next change or the
 * next due checkpoint starts a new one.
 */
const IDLE_STOP_MS = 30_000;
/** Queue rows per batch: large batches are what make deferred indexing cheap. */
export const TEXT_INDEX_BATCH = 2_000;
/** Rows per batch on the server's own thread: one batch is one hold of the event loop. */
const IN_PROCESS_BATCH = 250;

/** PostgreSQL, or a process that does not index (an external job worker, whose writes the server's indexer picks up). */
export const NO_TEXT_INDEXER: TextIndexer = { wake() {}, caughtUp: async () => {}, close: async () => {} };

interface Waiter {
  target: number;
  resolve: () => void;
  timer: NodeJS.Timeout;
}

/** SQLite: waits on the `through` mark, which moves in queue order (one writer at a time). */
abstract class SqliteIndexer implements TextIndexer {
  protected through: number;
  private waiters: Waiter[] = [];

  constructor(protected readonly sqlite: SQLite.Database) {
    this.through = readThrough(sqlite);
  }

  abstract wake(): void;
  abstract close(): Promise<void>;
  /** A search is waiting: index now. */
  protected hurry(): void {
    this.wake();
  }

  async caughtUp(datasetId: string): Promise<void> {
    const target = this.sqlite
      .prepare('SELECT max(seq) FROM text_index_queue WHERE dataset_id = ? AND seq > ?')
      .pluck()
      .get(datasetId, this.through) as number | null;
    if (target === null || target === undefined) return;
    this.hurry();
    await new Promise<void>((resolve) => {
      const waiter: Waiter = { target, resolve, timer: setTimeout(() => this.release(waiter), TEXT_INDEX_WAIT_MS) };
      this.waiters.push(waiter);
    });
  }

  protected advanced(through: number): void {
    this.through = Math.max(this.through, through);
    for (const waiter of this.waiters.filter((w) => w.target <= this.through)) this.release(waiter);
  }

  protected release(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    this.waiters = this.waiters.filter((w) => w !== waiter);
    waiter.resolve();
  }

  /** Whether a search is waiting for queued changes. */
  protected get waiting(): boolean {
    return this.waiters.length > 0;
  }

  protected releaseAll(): void {
    for (const waiter of [...this.waiters]) this.release(waiter);
  }
}

/** The worker thread starts with the first queued change (many test servers never index a word). */
class SqliteWorkerIndexer extends SqliteIndexer {
  private worker: Worker | undefined;
  /** Threads asked to stop, until they exit. */
  private readonly stopping = new Set<Promise<void>>();
  private closing = false;
  private readonly poll: NodeJS.Timeout;
  /** When the thread last had something to do (a change, a wake-up, a batch applied). */
  private lastActive = 0;

  constructor(
    sqlite: SQLite.Database,
    private readonly file: string,
    private readonly idleStopMs: number,
  ) {
    super(sqlite);
    // Changes queued by another process (an external job worker), or left by a crash; or a
    // write-ahead log that needs the thread's checkpoints (wal-checkpoint.ts).
    this.poll = setInterval(() => {
      if (!this.worker && (this.hasQueued() || walPages(this.file) >= CHECKPOINT_PAGES)) this.wake();
      else if (this.worker && this.idle()) this.stop(this.worker);
    }, POLL_MS).unref();
    if (this.hasQueued()) this.wake();
  }

  /** Whether a thread is running (tests). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  private idle(): boolean {
    return Date.now() - this.lastActive >= this.idleStopMs && !this.waiting && !this.hasQueued();
  }

  private hasQueued(): boolean {
    return this.sqlite.open && this.sqlite.prepare('SELECT 1 FROM text_index_queue WHERE seq > ? LIMIT 1').get(this.through) !== undefined;
  }

  private start(): Worker {
    const worker = startSearchWorker('text-indexer', { file: this.file, batch: TEXT_INDEX_BATCH, pollMs: POLL_MS });
    worker.on('message', (message: { through?: number; error?: string }) => {
      if (message.through !== undefined) {
        this.lastActive = Date.now();
        this.advanced(message.through);
      }
      if (message.error) log.error({ error: message.error }, 'text index batch failed; retrying');
    });
    worker.on('error', (error) => log.error({ error: describeError(error) }, 'text indexer failed'));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined; // started again by the next change or poll, from its committed mark
    });
    worker.unref();
    return worker;
  }

  wake(message: 'wake' | 'now' = 'wake'): void {
    if (this.closing) return;
    this.lastActive = Date.now();
    if (!this.worker) this.worker = this.start();
    else this.worker.postMessage(message);
  }

  protected override hurry(): void {
    this.wake('now');
  }

  /**
   * Asks a thread to stop between batches (its connection closes cleanly); ended outright if it
   * does not answer. A change queued meanwhile starts a new thread: a batch the old one was
   * applying is not applied twice (text-index-drain.ts checks the mark it started from).
   */
  private stop(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
    const done = stopWorkerThread(worker).then(() => void this.stopping.delete(done));
    this.stopping.add(done);
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.poll);
    this.releaseAll();
    if (this.worker) this.stop(this.worker);
    await Promise.all([...this.stopping]);
  }
}

class SqliteInProcessIndexer extends SqliteIndexer {
  private scheduled: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly poll: NodeJS.Timeout;

  constructor(sqlite: SQLite.Database) {
    super(sqlite);
    this.poll = setInterval(() => this.wake(), POLL_MS).unref();
  }

  wake(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = setTimeout(() => this.run(), 0);
  }

  private run(): void {
    this.scheduled = undefined;
    if (this.closed || !this.sqlite.open) return;
    // Never inside a request's open transaction: its rollback would take the batch with it.
    if (this.sqlite.inTransaction) return this.wake();
    let batch;
    try {
      batch = drainSqliteTextQueue(this.sqlite, IN_PROCESS_BATCH);
    } catch (error) {
      log.error({ error: describeError(error) }, 'text index batch failed; retrying');
      return; // rolled back whole; the next poll tries again
    }
    if (batch.changes === 0) return;
    this.advanced(batch.through);
    this.wake();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poll);
    clearTimeout(this.scheduled);
    this.releaseAll();
  }
}

export function startSqliteTextIndexer(sqlite: SQLite.Database, options: { idleStopMs?: number } = {}): TextIndexer & { running?: boolean } {
  return sqlite.memory ? new SqliteInProcessIndexer(sqlite) : new SqliteWorkerIndexer(sqlite, sqlite.name, options.idleStopMs ?? IDLE_STOP_MS);
}

/** An error as a log line can carry it (one cloned from a worker thread may be a plain object). */
function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? error.message;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
