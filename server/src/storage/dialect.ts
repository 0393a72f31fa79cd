import { PostgresAdapter, type Kysely } from 'kysely';
import type { EmbeddingFiller } from './search/embedding-filler.js';
import type { SearchReads } from './search/search-reader.js';
import type { TextIndexer } from './search/text-indexer.js';
import type { Tables } from './tables.js';

export type DialectName = 'sqlite' | 'postgres';

/** The database handle services receive: the query builder plus the dialect it speaks. */
export interface Database {
  db: Kysely<Tables>;
  dialect: DialectName;
  /** Applies queued text index changes in the background (storage/search/text-indexer.ts). */
  textIndexer: TextIndexer;
  /** Fills pgvector embeddings after the writes (storage/search/embedding-filler.ts). */
  embeddingFiller: EmbeddingFiller;
  /** Where searches run their statements (storage/search/search-reader.ts). */
  searchReads: SearchReads;
  /** PostgreSQL: why pgvector is off although SCHOLIA_PGVECTOR wants it (similarity search is then exact only). */
  pgvectorUnavailable?: string;
  close(): Promise<void>;
}

/**
 * The dialect a query builder speaks, transactions included (a transaction is a new Kysely
 * object, so this reads the adapter rather than a lookup by instance). For storage/ only.
 */
export function dialectOf(db: Kysely<Tables>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
