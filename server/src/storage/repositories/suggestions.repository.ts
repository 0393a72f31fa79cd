import type { Kysely } from 'kysely';
import type { SuggestionRow, Tables } from '../tables.js';

type Db = Kysely<Tables>;

export const findSuggestionById = (db: Db, id: string): Promise<SuggestionRow | undefined> =>
  db.selectFrom('suggestions').selectAll().where('id', '=', id).executeTakeFirst();

export const findSuggestionOfQuestion = (db: Db, recordId: string, questionId: string): Promise<SuggestionRow | undefined> =>
  db.selectFrom('suggestions').selectAll().where('record_id', '=', recordId).where('question_id', '=', questionId).executeTakeFirst();

export const listSuggestionsOfRecord = (db: Db, recordId: string): Promise<SuggestionRow[]> =>
  db.selectFrom('suggestions').selectAll().where('record_id', '=', recordId).orderBy('inserted_at').execute();

export async function insertSuggestion(db: Db, row: SuggestionRow): Promise<void> {
  await db.insertInto('suggestions').values(row).execute();
}

export async function updateSuggestion(
  db: Db,
  id: string,
  changes: Pick<SuggestionRow, 'type' | 'value' | 'agent' | 'score' | 'updated_at'>,
): Promise<void> {
  await db.updateTable('suggestions').set(changes).where('id', '=', id).execute();
}

/** Deletes suggestions of one record by id; ids of other records are ignored. */
export async function deleteSuggestionsOfRecordByIds(db: Db, recordId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('suggestions').where('record_id', '=', recordId).where('id', 'in', ids).execute();
}

export async function deleteSuggestion(db: Db, id: string): Promise<void> {
  await db.deleteFrom('suggestions').where('id', '=', id).execute();
}
