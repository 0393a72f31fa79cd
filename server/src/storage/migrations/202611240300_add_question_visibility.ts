import type { Kysely } from 'kysely';

/**
 * `questions.visible_for_annotators` (Scholia extension, spec §3 Question "visible for
 * annotators"): a flag stored as 0/1 like `metadata_properties.visible_for_annotators`. Existing
 * questions stay visible (default 1), so nothing changes for datasets made before it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('questions')
    .addColumn('visible_for_annotators', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('questions').dropColumn('visible_for_annotators').execute();
}
