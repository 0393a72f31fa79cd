import type { Kysely } from 'kysely';

/**
 * Vectors of one vector settings in record-id order: the similarity cache reads a set in
 * key-ordered pages (vector-index.ts) instead of holding every row in memory at once. The
 * single-column index it replaces is a prefix of this one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('vectors_settings_record_idx').on('vectors').columns(['vector_settings_id', 'record_id']).execute();
  await db.schema.dropIndex('vectors_settings_idx').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('vectors_settings_idx').on('vectors').columns(['vector_settings_id']).execute();
  await db.schema.dropIndex('vectors_settings_record_idx').ifExists().execute();
}
