import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * Search support:
 * - `vector_set_versions`: a counter per vector settings bumped by triggers on every vector
 *   write, so the in-memory similarity cache (storage/search/vector-index.ts) knows when it is
 *   stale without watching the write paths.
 * - `suggestions(dataset_id, question_id, agent)`: covers the suggestion-agents options query.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('vector_set_versions')
    .addColumn('vector_settings_id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();

  if (dialect === 'sqlite') {
    for (const [event, row] of [['INSERT', 'NEW'], ['UPDATE', 'NEW'], ['DELETE', 'OLD']] as const) {
      await sql
        .raw(
          `CREATE TRIGGER vectors_version_${event.toLowerCase()} AFTER ${event} ON vectors BEGIN ` +
            `INSERT INTO vector_set_versions (vector_settings_id, version) VALUES (${row}.vector_settings_id, 1) ` +
            `ON CONFLICT (vector_settings_id) DO UPDATE SET version = version + 1; END`,
        )
        .execute(db);
    }
  } else {
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION bump_vector_set_version() RETURNS trigger AS $$
         BEGIN
           INSERT INTO vector_set_versions (vector_settings_id, version)
             VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.vector_settings_id ELSE NEW.vector_settings_id END, 1)
             ON CONFLICT (vector_settings_id) DO UPDATE SET version = vector_set_versions.version + 1;
           RETURN NULL;
         END $$ LANGUAGE plpgsql`,
      )
      .execute(db);
    await sql
      .raw(
        'CREATE TRIGGER vectors_version AFTER INSERT OR UPDATE OR DELETE ON vectors FOR EACH ROW EXECUTE FUNCTION bump_vector_set_version()',
      )
      .execute(db);
  }

  await db.schema
    .createIndex('suggestions_dataset_question_agent_idx')
    .on('suggestions')
    .columns(['dataset_id', 'question_id', 'agent'])
    .execute();
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  await db.schema.dropIndex('suggestions_dataset_question_agent_idx').ifExists().execute();
  if (dialect === 'sqlite') {
    for (const event of ['insert', 'update', 'delete']) await sql.raw(`DROP TRIGGER IF EXISTS vectors_version_${event}`).execute(db);
  } else {
    await sql.raw('DROP TRIGGER IF EXISTS vectors_version ON vectors').execute(db);
    await sql.raw('DROP FUNCTION IF EXISTS bump_vector_set_version()').execute(db);
  }
  await db.schema.dropTable('vector_set_versions').ifExists().execute();
}
