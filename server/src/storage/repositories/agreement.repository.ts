import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { sqliteHandle } from '../open-database.js';
import type { Tables } from '../tables.js';

type Db = Kysely<Tables>;

/** Receives one submitted response: its record, author and stored values (JSON text). */
export type AnswerVisitor = (recordId: string, userId: string, values: string) => void;

/**
 * Every submitted response of a dataset that has values, handed over one at a time; `rids`
 * narrows to those records. SQLite streams plain arrays: a dataset's answers can number in the
 * hundreds of thousands, and an object per row is most of the reading time. (Cutting the answers
 * out with SQLite's JSON functions costs more than reading the whole values: measured.)
 */
export async function forEachSubmittedAnswer(db: Db, datasetId: string, rids: ReadonlySet<number> | undefined, visit: AnswerVisitor): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    const statement = sqliteHandle(db).prepare(
      rids
        ? `SELECT rs.record_id, rs.user_id, rs."values", r.rid FROM responses rs JOIN records r ON r.id = rs.record_id
           WHERE rs.dataset_id = ? AND rs.status = 'submitted' AND rs."values" IS NOT NULL`
        : `SELECT record_id, user_id, "values" FROM responses WHERE dataset_id = ? AND status = 'submitted' AND "values" IS NOT NULL`,
    );
    for (const row of statement.raw(true).iterate(datasetId) as Iterable<[string, string, string, number?]>) {
      if (!rids || rids.has(Number(row[3]))) visit(row[0], row[1], row[2]);
    }
    return;
  }
  const base = db
    .selectFrom('responses')
    .where('responses.dataset_id', '=', datasetId)
    .where('responses.status', '=', 'submitted')
    .where('responses.values', 'is not', null);
  if (!rids) {
    for (const row of await base.select(['record_id', 'user_id', 'values']).execute()) visit(row.record_id, row.user_id, toText(row.values));
    return;
  }
  const rows = await base
    .innerJoin('records', 'records.id', 'responses.record_id')
    .select(['responses.record_id', 'responses.user_id', 'responses.values', 'records.rid'])
    .execute();
  for (const row of rows) if (rids.has(Number(row.rid))) visit(row.record_id, row.user_id, toText(row.values));
}

/** jsonb arrives as text (open-database.ts); anything else is turned into it. */
const toText = (values: unknown): string => (typeof values === 'string' ? values : JSON.stringify(values));

export async function findUsernames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((row) => [row.id, row.username]));
}
