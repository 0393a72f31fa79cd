import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { sqliteHandle } from '../open-database.js';
import type { Tables } from '../tables.js';

type Db = Kysely<Tables>;

/** Receives one submitted response: its record, author and, per asked question, the answer's JSON text (null: none). */
export type AnswerVisitor = (recordId: string, userId: string, texts: (string | null)[]) => void;

/** A SQLite JSON path for a key: `$."name".value`; null when the name holds a quote (no quoting exists for it). */
const sqlitePath = (name: string) => (name.includes('"') ? null : `$."${name}".value`);

/**
 * Every submitted response of a dataset that has values, handed over one at a time with the
 * answers to `questionNames` as JSON text, cut out by the database so that no response's whole
 * values are parsed here; `rids` narrows to those records. SQLite streams plain arrays: a dataset's
 * answers can number in the hundreds of thousands, and an object per row is most of the reading time.
 */
export async function forEachSubmittedAnswer(
  db: Db,
  datasetId: string,
  questionNames: readonly string[],
  rids: ReadonlySet<number> | undefined,
  visit: AnswerVisitor,
): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    const paths = questionNames.map(sqlitePath);
    const answers = paths.map((path) => (path === null ? `rs."values"` : `rs."values" -> ?`)).join(', ');
    const statement = sqliteHandle(db).prepare(
      `SELECT rs.record_id, rs.user_id, r.rid, ${answers} FROM responses rs ${rids ? 'JOIN records r ON r.id = rs.record_id' : 'JOIN (SELECT NULL AS rid) r'}
       WHERE rs.dataset_id = ? AND rs.status = 'submitted' AND rs."values" IS NOT NULL`,
    );
    const parameters = [...paths.filter((path): path is string => path !== null), datasetId];
    for (const row of statement.raw(true).iterate(...parameters) as Iterable<(string | number | null)[]>) {
      if (rids && !rids.has(Number(row[2]))) continue;
      // A name no path can quote: its answer is read from the whole values.
      const texts = paths.map((path, q) => (path === null ? quotedAnswer(row[3 + q] as string, questionNames[q]) : (row[3 + q] as string | null)));
      visit(row[0] as string, row[1] as string, texts);
    }
    return;
  }
  let query = db
    .selectFrom('responses')
    .innerJoin('records', 'records.id', 'responses.record_id')
    .select(['responses.record_id', 'responses.user_id', 'records.rid'])
    .where('responses.dataset_id', '=', datasetId)
    .where('responses.status', '=', 'submitted')
    .where('responses.values', 'is not', null);
  questionNames.forEach((name, q) => {
    query = query.select(sql<string | null>`(responses."values" -> ${name} -> 'value')::text`.as(`q${q}`));
  });
  const rows = (await query.execute()) as unknown as Record<string, string | number | null>[];
  for (const row of rows) {
    if (rids && !rids.has(Number(row.rid))) continue;
    visit(row.record_id as string, row.user_id as string, questionNames.map((_, q) => (row[`q${q}`] as string | null) ?? null));
  }
}

function quotedAnswer(values: string, name: string): string | null {
  const value = (JSON.parse(values) as Record<string, { value?: unknown } | undefined>)[name]?.value;
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export async function findUsernames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((row) => [row.id, row.username]));
}
