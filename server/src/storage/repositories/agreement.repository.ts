import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { sqliteHandle } from '../open-database.js';
import type { Tables } from '../tables.js';

type Db = Kysely<Tables>;

/** Receives one submitted response: its record, author and stored values (JSON text). */
export type AnswerVisitor = (recordId: string, userId: string, values: string) => void;

/**
 * Every submitted response of a dataset that has values, handed over one at a time. SQLite streams
 * plain arrays, annotator by annotator along the responses index, so that an annotator's id
 * crosses once rather than with each row: a dataset's answers can number in the hundreds of
 * thousands, and what each row brings over is most of the reading time. (Cutting the answers out
 * with SQLite's JSON functions costs more than reading the whole values: measured.)
 */
export async function forEachSubmittedAnswer(db: Db, datasetId: string, visit: AnswerVisitor): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    const sqlite = sqliteHandle(db);
    const nextUser = sqlite.prepare('SELECT min(user_id) FROM responses WHERE dataset_id = ? AND user_id > ?').pluck();
    const answers = sqlite
      .prepare(`SELECT record_id, "values" FROM responses WHERE dataset_id = ? AND user_id = ? AND status = 'submitted' AND "values" IS NOT NULL`)
      .raw(true);
    let userId = nextUser.get(datasetId, '') as string | null;
    while (userId !== null) {
      for (const row of answers.iterate(datasetId, userId) as Iterable<[string, string]>) visit(row[0], userId, row[1]);
      userId = nextUser.get(datasetId, userId) as string | null;
    }
    return;
  }
  const rows = await db
    .selectFrom('responses')
    .select(['record_id', 'user_id', 'values'])
    .where('dataset_id', '=', datasetId)
    .where('status', '=', 'submitted')
    .where('values', 'is not', null)
    .execute();
  for (const row of rows) visit(row.record_id, row.user_id, toText(row.values));
}

/** The rid of each record of a dataset, by record id. */
export async function recordRidsById(db: Db, datasetId: string): Promise<Map<string, number>> {
  const rids = new Map<string, number>();
  if (dialectOf(db) === 'sqlite') {
    const statement = sqliteHandle(db).prepare('SELECT id, rid FROM records WHERE dataset_id = ?');
    for (const [id, rid] of statement.raw(true).iterate(datasetId) as Iterable<[string, number]>) rids.set(id, rid);
    return rids;
  }
  for (const row of await db.selectFrom('records').select(['id', 'rid']).where('dataset_id', '=', datasetId).execute()) rids.set(row.id, Number(row.rid));
  return rids;
}

/**
 * The dataset's `response_set_versions` version: it changes with every change to the dataset's
 * responses (migration 202611260200); 0 before its first response.
 */
export async function responseSetVersion(db: Db, datasetId: string): Promise<number> {
  const { rows } = await sql<{ version: number | string }>`SELECT version FROM response_set_versions WHERE dataset_id = ${datasetId}`.execute(db);
  return rows.length === 0 ? 0 : Number(rows[0].version);
}

/** jsonb arrives as text (open-database.ts); anything else is turned into it. */
const toText = (values: unknown): string => (typeof values === 'string' ? values : JSON.stringify(values));

export async function findUsernames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((row) => [row.id, row.username]));
}
