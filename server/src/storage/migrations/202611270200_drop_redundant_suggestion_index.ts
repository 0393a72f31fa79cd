import type { Kysely } from 'kysely';

/**
 * `suggestions_dataset_question_idx (dataset_id, question_id)` is the leading part of
 * `suggestions_dataset_question_agent_idx`, which serves every lookup it served; each written
 * suggestion paid for both.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('suggestions_dataset_question_idx').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('suggestions_dataset_question_idx').ifNotExists().on('suggestions').columns(['dataset_id', 'question_id']).execute();
}
