import type { Kysely } from 'kysely';
import type { Tables } from '../tables.js';
import { fillPendingEmbeddings } from './pgvector.js';

/**
 * Fills pgvector embeddings after the writes (pgvector.ts), in the server process on PostgreSQL.
 * Adding vectors to an HNSW index is the database's most expensive work (milliseconds a vector),
 * so the filler rests nine times as long as each batch took: it takes at most a tenth of a
 * database connection's time and leaves the cores to the requests. On 2 cores, submits' p99 while
 * a backlog of 10,000 vectors was filled: 14 ms with none, 22 ms at a tenth, 29 ms at a fifth,
 * 67-83 ms at half. Searches stay exact until a set's backlog is gone (pgvector.ts). Vectors
 * written by another process (a job worker) are found by the idle poll.
 */
export interface EmbeddingFiller {
  close(): Promise<void>;
}

/** Vectors per batch: one statement of a few hundred kilobytes, a few hundred ms of HNSW inserts. */
const BATCH = 100;
/** How often an idle filler looks for waiting vectors. */
const POLL_MS = 1_000;
/** A batch is followed by this many times its duration of rest. */
const REST_FACTOR = 9;

const fillers = new WeakMap<object, RunningFiller>();
const adapterOf = (db: Kysely<Tables>) => db.getExecutor().adapter;

export const NO_EMBEDDING_FILLER: EmbeddingFiller = { close: async () => {} };

export function startEmbeddingFiller(db: Kysely<Tables>): EmbeddingFiller {
  const filler = new RunningFiller(db);
  fillers.set(adapterOf(db), filler);
  return filler;
}

/** Vectors were written through `db` (or a transaction of it): an idle filler looks for them now. */
export function vectorsWritten(db: Kysely<Tables>): void {
  fillers.get(adapterOf(db))?.written();
}

class RunningFiller implements EmbeddingFiller {
  private closed = false;
  private wakeUp: (() => void) | undefined;
  private readonly loop: Promise<void>;

  constructor(private readonly db: Kysely<Tables>) {
    this.loop = this.run();
  }

  written(): void {
    this.wakeUp?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeUp?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      const started = performance.now();
      // A failed batch (the database restarting) is tried again at the next poll.
      const filled = await fillPendingEmbeddings(this.db, BATCH).catch(() => 0);
      if (this.closed) return;
      if (filled === 0) await this.rest(POLL_MS, true);
      else await this.rest((performance.now() - started) * REST_FACTOR, false);
    }
  }

  /** Waits `ms`; a write cuts an idle wait short, never the rest that paces the filler. */
  private rest(ms: number, wakeOnWrite: boolean): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = wakeOnWrite ? done : () => this.closed && done();
    });
  }
}
