import type { Kysely } from 'kysely';
import type { Tables } from './tables.js';

export type DialectName = 'sqlite' | 'postgres';

/** The database handle services receive: the query builder plus the dialect it speaks. */
export interface Database {
  db: Kysely<Tables>;
  dialect: DialectName;
  close(): Promise<void>;
}
