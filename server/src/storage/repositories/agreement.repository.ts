import type { Kysely } from 'kysely';
import type { Tables } from '../tables.js';

type Db = Kysely<Tables>;

export interface SubmittedAnswerRow {
  record_id: string;
  user_id: string;
  values: unknown;
}

/** Every submitted response of a dataset with values; `rids` narrows to those records. */
export async function listSubmittedAnswers(db: Db, datasetId: string, rids?: ReadonlySet<number>): Promise<SubmittedAnswerRow[]> {
  if (!rids) {
    return db
      .selectFrom('responses')
      .select(['record_id', 'user_id', 'values'])
      .where('dataset_id', '=', datasetId)
      .where('status', '=', 'submitted')
      .where('values', 'is not', null)
      .execute();
  }
  const rows = await db
    .selectFrom('responses')
    .innerJoin('records', 'records.id', 'responses.record_id')
    .select(['responses.record_id', 'responses.user_id', 'responses.values', 'records.rid'])
    .where('responses.dataset_id', '=', datasetId)
    .where('responses.status', '=', 'submitted')
    .where('responses.values', 'is not', null)
    .execute();
  return rows.filter((row) => rids.has(Number(row.rid)));
}

export async function findUsernames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((row) => [row.id, row.username]));
}
