import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import type { Tables } from '../tables.js';

/**
 * Runs a search's queries within a time budget. PostgreSQL: statements are cancelled past
 * `budgetMs` (by their connection's statement_timeout, or SET LOCAL in a read transaction),
 * reported as SearchTimeBudgetExceeded. SQLite: better-sqlite3 can neither interrupt a statement nor register
 * a progress handler, so each statement runs to its end on the event loop; the search's slices
 * (lib/event-loop-slices.ts) stop it between statements once over budget, and the bounds on the
 * search's input (lib/work-limits.ts) keep each statement short.
 */
export class SearchTimeBudgetExceeded extends Error {}

/**
 * Query builders whose connections already cancel every statement past the search budget
 * (search reads on PostgreSQL, postgres-search-reads.ts): no transaction is needed to set one.
 */
export const statementsWithinBudget = new WeakSet<Kysely<Tables>>();

export async function withinTimeBudget<T>(db: Kysely<Tables>, budgetMs: number, work: (db: Kysely<Tables>) => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'postgres') return work(db);
  try {
    if (statementsWithinBudget.has(db)) return await work(db);
    return await db.transaction().execute(async (trx) => {
      await sql`SET LOCAL statement_timeout = ${sql.lit(Math.max(1, Math.round(budgetMs)))}`.execute(trx);
      return work(trx);
    });
  } catch (error) {
    // 57014 query_canceled: the statement timeout fired
    if ((error as { code?: string }).code === '57014') throw new SearchTimeBudgetExceeded('statement timeout', { cause: error });
    throw error;
  }
}
