import type { Kysely, Selectable } from 'kysely';
import type { RecordRow, Tables } from '../tables.js';

type Db = Kysely<Tables>;

/** A records row as read (rid is a plain number). */
export type StoredRecord = Selectable<RecordRow>;

/** Read side of records (contract §2.9): listing in insertion order, single record, agents. */

/** A page of the dataset's records in insertion order (rid; indexed with dataset_id). */
export const listDatasetRecordsPage = (db: Db, datasetId: string, offset: number, limit: number): Promise<StoredRecord[]> =>
  db.selectFrom('records').selectAll().where('dataset_id', '=', datasetId).orderBy('rid').limit(limit).offset(offset).execute();

export async function countDatasetRecords(db: Db, datasetId: string): Promise<number> {
  const row = await db
    .selectFrom('records')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('dataset_id', '=', datasetId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const findRecordRowById = (db: Db, id: string): Promise<StoredRecord | undefined> =>
  db.selectFrom('records').selectAll().where('id', '=', id).executeTakeFirst();

/** Distinct non-null (question, agent) pairs of the dataset's suggestions, agents sorted. */
export const listSuggestionAgents = (db: Db, datasetId: string): Promise<{ question_id: string; agent: string }[]> =>
  db
    .selectFrom('suggestions')
    .select(['question_id', 'agent'])
    .distinct()
    .where('dataset_id', '=', datasetId)
    .where('agent', 'is not', null)
    .orderBy('question_id')
    .orderBy('agent')
    .execute() as Promise<{ question_id: string; agent: string }[]>;
