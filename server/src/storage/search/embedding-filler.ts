import type { Kysely } from 'kysely';
import type { Tables } from '../tables.js';
import { fillPendingEmbeddings } from './pgvector.js';

/**
 * Fills pgvector embeddings after the writes (pgvector.ts), in the server process on PostgreSQL.
 * Adding vectors to an HNSW index is the database's most expensive work, so while this process
 * is writing vectors the filler takes at most a tenth of a database connection's time, and runs
 * batch after batch once the writes pause. Vectors written by another process (a job worker) are
 * found by the idle poll.
 */
export interface EmbeddingFiller {
  close(): Promise<void>;
}

/** Vectors per batch: one statement of a few hundred kilobytes, a fraction of a second of HNSW inserts. */
const BATCH = 200;
/** How often an idle filler looks for waiting vectors. */
const POLL_MS = 1_000;
/** Writes within this long make the filler pace itself. */
const QUIET_MS = 2_000;
/** While writes go on, a batch is followed by this many times its duration of rest. */
const REST_FACTOR_WHILE_WRITING = 9;

const fillers = new WeakMap<object, RunningFiller>();
const adapterOf = (db: Kysely<Tables>) => db.getExecutor().adapter;

export const NO_EMBEDDING_FILLER: EmbeddingFiller = { close: async () => {} };

export function startEmbeddingFiller(db: Kysely<Tables>): EmbeddingFiller {
  const filler = new RunningFiller(db);
  fillers.set(adapterOf(db), filler);
  return filler;
}

/** Vectors were written through `db` (or a transaction of it): fill them soon, and pace the filler meanwhile. */
export function vectorsWritten(db: Kysely<Tables>): void {
  fillers.get(adapterOf(db))?.written();
}

class RunningFiller implements EmbeddingFiller {
  private lastWriteAt = -Infinity;
  private closed = false;
  private wakeUp: (() => void) | undefined;
  private readonly loop: Promise<void>;

  constructor(private readonly db: Kysely<Tables>) {
    this.loop = this.run();
  }

  written(): void {
    this.lastWriteAt = performance.now();
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
      else if (performance.now() - this.lastWriteAt < QUIET_MS) await this.rest((performance.now() - started) * REST_FACTOR_WHILE_WRITING, false);
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
