import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type { Tables } from '../tables.js';
import type { SearchReads } from './search-reader.js';
import { statementsWithinBudget } from './search-time-budget.js';

type Db = Kysely<Tables>;

/**
 * Where a search's statements run on PostgreSQL: a pool of their own whose connections cancel any
 * statement past the search's time budget (`statement_timeout`, set when each connection opens).
 * A search then needs no transaction to set its budget: four round trips fewer (begin, SET LOCAL,
 * commit, twice), and each round trip on a busy machine is a wait for the CPU.
 */
export class PostgresSearchReads implements SearchReads {
  private readonly reader: Db;

  /** `pool`: connections with `statement_timeout` set to the search budget, used by searches only. */
  constructor(private readonly pool: pg.Pool) {
    this.reader = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    statementsWithinBudget.add(this.reader);
  }

  readerFor(): Db {
    return this.reader;
  }

  async close(): Promise<void> {
    await this.reader.destroy();
  }
}
