import type { Kysely } from 'kysely';
import type { Tables } from '../tables.js';
import { fillPendingEmbeddings } from './pgvector.js';

/**
 * Fills pgvector embeddings after the writes (pgvector.ts), in the server process on PostgreSQL.
 * Adding vectors to an HNSW index is the database's most expensive work (milliseconds a vector),
 * so the filler rests nine times as long as each batch took: it takes at most a tenth of a
 * database connection's time and leaves the cores to the requests. On 2 cores, submits' p99 while
 * a backlog of 10,000 vectors was filled: 14 ms with none, 22 ms at a tenth, 29 ms at a fifth,
 * 67-83 ms at half. Searches stay exact until a set's backlog is gone (pgvector.ts). A write's
 * vectors are found by the next poll (a second at most), from whichever process wrote them: no
 * need to be sooner, as searches are exact until then.
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

export const NO_EMBEDDING_FILLER: EmbeddingFiller = { close: async () => {} };

export function startEmbeddingFiller(db: Kysely<Tables>): EmbeddingFiller {
  return new RunningFiller(db);
}

class RunningFiller implements EmbeddingFiller {
  private closed = false;
  private stopResting: (() => void) | undefined;
  private readonly loop: Promise<void>;

  constructor(private readonly db: Kysely<Tables>) {
    this.loop = this.run();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopResting?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      const started = performance.now();
      // A failed batch (the database restarting) is tried again at the next poll.
      const filled = await fillPendingEmbeddings(this.db, BATCH).catch(() => 0);
      await this.rest(filled === 0 ? POLL_MS : (performance.now() - started) * REST_FACTOR);
    }
  }

  /** Waits `ms`, or until the filler is closed. */
  private rest(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.stopResting = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
