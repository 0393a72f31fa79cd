import { PostgresAdapter, type Kysely } from 'kysely';
import type { Tables } from './tables.js';

export type DialectName = 'sqlite' | 'postgres';

/** The database handle services receive: the query builder plus the dialect it speaks. */
export interface Database {
  db: Kysely<Tables>;
  dialect: DialectName;
  close(): Promise<void>;
}

/**
 * The dialect a query builder speaks, transactions included (a transaction is a new Kysely
 * object, so this reads the adapter rather than a lookup by instance). For storage/ only.
 */
export function dialectOf(db: Kysely<Tables>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
