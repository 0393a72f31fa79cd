import { performance } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import { RecentUsage } from '../../lib/recent-usage.js';
import type { Tables } from '../tables.js';
import { stopWorkerThread } from '../../lib/worker-threads.js';
import { startSearchWorker } from './search-worker.js';
import type { ReadAnswer, ReadRequest } from './search-reader.worker.js';

type Db = Kysely<Tables>;

/**
 * Where a search's statements run. better-sqlite3 runs a statement to its end on the calling
 * thread, and one ranked text query over frequent words holds it for tens of ms: a flood of such
 * searches on the server's thread made every other request wait behind them. So on a SQLite file
 * a user whose statement ran long (LONG_STATEMENT_MS) has their search statements run in a worker
 * thread on a read-only connection of its own (search-reader.worker.ts) for the next
 * OFF_LOOP_FOR_MS; everyone else's stay on the server's connection, where short statements cost
 * least. The thread runs one statement at a time, the next going to the user who has had the
 * least of its time lately. The records' file is in WAL mode, so the thread reads every commit
 * made before its statement starts, as the server's connection does.
 *
 * PostgreSQL runs statements in its own processes: there searches read through a pool of their
 * own (postgres-search-reads.ts). An in-memory SQLite database cannot be opened twice: there the
 * search reads through the server's own query builder.
 */
export interface SearchReads {
  /** The query builder the search of `owner` (a user id) reads through. */
  readerFor(owner: string): Db;
  close(): Promise<void>;
}

export const sameConnectionReads = (db: Db): SearchReads => ({ readerFor: () => db, close: async () => {} });

/**
 * A statement at least this long sends its user's next ones to the worker thread. Above a garbage
 * collection's pause, which a statement on the server's thread may take in; below the ranked text
 * queries over frequent words that a flood is made of (20-30 ms).
 */
const LONG_STATEMENT_MS = 12;
/** How long after their last long statement a user's statements keep running on the worker thread. */
const OFF_LOOP_FOR_MS = 10_000;
/** After the thread fails, statements stay on the server's connection this long before a new thread is tried. */
const THREAD_RETRY_AFTER_MS = 10_000;
/** An idle thread is stopped after this long (its connection's cache and heap are released). */
const IDLE_STOP_MS = 30_000;
/** Milliseconds a user's thread time takes to count half as much. */
const USAGE_HALF_LIFE_MS = 2_000;
/** The thread connection's page cache: searches read the same few indexes as the server's connection. */
const READER_CACHE_MIB = 8;

interface Pending {
  owner: string;
  sql: string;
  parameters: readonly unknown[];
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

export class SqliteSearchReads implements SearchReads {
  private worker: Worker | undefined;
  private running: (Pending & { id: number }) | undefined;
  private readonly queue: Pending[] = [];
  private readonly usage = new RecentUsage(USAGE_HALF_LIFE_MS);
  private nextId = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Statements run on the thread so far (tests tell where a statement ran by it). */
  statementsOnThread = 0;
  /** When the thread last failed or stopped unasked. */
  private lostAt = Number.NEGATIVE_INFINITY;
  /** Per user who ran a long statement: until when their statements run on the thread. */
  private readonly offLoopUntil = new Map<string, number>();

  /**
   * `bind` makes a new query builder answer to sqliteHandle() as the server's own does (raw
   * statements stay on the server's connection). `everyStatement` sends every statement to the
   * thread (tests of the thread's answers).
   */
  constructor(
    private readonly db: Db,
    private readonly file: string,
    private readonly bind: (reader: Db) => void,
    private readonly everyStatement = false,
  ) {}

  readerFor(owner: string): Db {
    const reader = new Kysely<Tables>({
      dialect: {
        createAdapter: () => new SqliteAdapter(),
        createDriver: () => new ReaderDriver((query) => this.execute(owner, query)),
        createIntrospector: (db) => new SqliteIntrospector(db),
        createQueryCompiler: () => new SqliteQueryCompiler(),
      },
    });
    this.bind(reader);
    return reader;
  }

  private async execute<R>(owner: string, query: CompiledQuery): Promise<QueryResult<R>> {
    const started = performance.now();
    const threadUp = started - this.lostAt >= THREAD_RETRY_AFTER_MS;
    if (threadUp && (this.everyStatement || (this.offLoopUntil.get(owner) ?? 0) > started)) {
      try {
        return { rows: (await this.read(owner, query.sql, query.parameters)) as R[] };
      } catch (error) {
        // The thread failed (not the statement): the statement runs on the server's connection.
        if (!(error instanceof ReaderThreadLost)) throw error;
      }
    }
    const result = await this.db.executeQuery<R>(query);
    const now = performance.now();
    if (now - started >= LONG_STATEMENT_MS) this.offLoopUntil.set(owner, now + OFF_LOOP_FOR_MS);
    return result;
  }

  private read(owner: string, sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.closed) return Promise.reject(new Error('the database is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ owner, sql, parameters, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    this.failAll(new Error('the database is closed'));
    await this.stopWorker();
  }

  private dispatch(): void {
    if (this.running || this.queue.length === 0) return;
    clearTimeout(this.idleTimer);
    const now = performance.now();
    let chosen = 0;
    for (let i = 1; i < this.queue.length; i++) {
      if (this.usage.of(this.queue[i].owner, now) < this.usage.of(this.queue[chosen].owner, now)) chosen = i;
    }
    const [pending] = this.queue.splice(chosen, 1);
    this.statementsOnThread += 1;
    this.running = { ...pending, id: this.nextId++ };
    const request: ReadRequest = { id: this.running.id, sql: pending.sql, parameters: pending.parameters };
    (this.worker ??= this.start()).postMessage(request);
  }

  private start(): Worker {
    const worker = startSearchWorker('search-reader', { file: this.file, cacheMiB: READER_CACHE_MIB });
    worker.on('message', (answer: ReadAnswer) => this.answered(answer));
    worker.on('error', (error) => this.lost(worker, new ReaderThreadLost('the search reader thread failed', { cause: error })));
    worker.on('exit', (code) => this.lost(worker, new ReaderThreadLost(`the search reader thread stopped (${code})`)));
    worker.unref();
    return worker;
  }

  private answered(answer: ReadAnswer): void {
    const running = this.running;
    if (!running || running.id !== answer.id) return;
    this.running = undefined;
    const now = performance.now();
    // The statement's own time on the thread: its wait in the queue is not its user's doing.
    this.usage.add(running.owner, answer.ms, now);
    if (answer.ms >= LONG_STATEMENT_MS) this.offLoopUntil.set(running.owner, now + OFF_LOOP_FOR_MS);
    if ('rows' in answer) running.resolve(answer.rows);
    else running.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
    this.forgetIdleOwners(now);
    if (this.queue.length > 0) this.dispatch();
    else this.idleTimer = setTimeout(() => void this.stopWorker(), IDLE_STOP_MS).unref();
  }

  /**
   * The thread failed or stopped: its statements, the one under way and those waiting, go back to
   * their searches, which run them on the server's connection, as every search does for a while.
   */
  private lost(worker: Worker, error: ReaderThreadLost): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.lostAt = performance.now();
    this.running?.reject(error);
    this.running = undefined;
    this.failAll(error);
  }

  private failAll(error: Error): void {
    for (const pending of this.queue.splice(0)) pending.reject(error);
  }

  private async stopWorker(): Promise<void> {
    const worker = this.worker;
    if (!worker || this.running) return;
    this.worker = undefined;
    await stopWorkerThread(worker);
  }

  /** Past a few half-lives a user's time no longer orders anyone. */
  private forgetIdleOwners(now: number): void {
    if (this.usage.size + this.offLoopUntil.size < 1_000) return;
    this.usage.forgetIdle(now);
    for (const [owner, until] of this.offLoopUntil) if (until < now) this.offLoopUntil.delete(owner);
  }
}

class ReaderThreadLost extends Error {}

/** A Kysely driver whose one connection hands each statement to `execute`. Reads only: no transactions. */
class ReaderDriver implements Driver {
  private readonly connection: DatabaseConnection;

  constructor(execute: <R>(query: CompiledQuery) => Promise<QueryResult<R>>) {
    this.connection = {
      executeQuery: execute,
      streamQuery: () => {
        throw new Error('the search reader does not stream');
      },
    };
  }

  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error('the search reader runs no transactions');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}
