import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * PostgreSQL: `vector_set_versions` is bumped once per transaction, at its commit, as
 * `record_set_versions` is (202611240500). The row trigger it replaces bumped the counter for
 * every vector written, so a bulk write held the set's counter row from its first vector to its
 * commit: concurrent bulk writes to one dataset waited on each other for their text and suggestion
 * rows, and so did the filling of pgvector embeddings, which bumped it too though no value changed.
 * Only a changed value counts now.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql.raw('DROP TRIGGER IF EXISTS vectors_version ON vectors').execute(db);
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION bump_vector_set_version() RETURNS trigger AS $$
       DECLARE
         settings varchar(36);
         marker text;
       BEGIN
         IF TG_OP = 'DELETE' THEN settings := OLD.vector_settings_id; ELSE settings := NEW.vector_settings_id; END IF;
         marker := 'scholia.vector_set_' || replace(settings, '-', '');
         IF current_setting(marker, true) = 'bumped' THEN RETURN NULL; END IF;
         PERFORM set_config(marker, 'bumped', true);
         INSERT INTO vector_set_versions (vector_settings_id, version) VALUES (settings, 1)
           ON CONFLICT (vector_settings_id) DO UPDATE SET version = vector_set_versions.version + 1;
         RETURN NULL;
       END $$ LANGUAGE plpgsql`,
    )
    .execute(db);
  const deferred = (name: string, event: string, when = '') =>
    sql
      .raw(
        `CREATE CONSTRAINT TRIGGER ${name} AFTER ${event} ON vectors DEFERRABLE INITIALLY DEFERRED
         FOR EACH ROW ${when} EXECUTE FUNCTION bump_vector_set_version()`,
      )
      .execute(db);
  await deferred('vectors_version_insert', 'INSERT');
  await deferred('vectors_version_delete', 'DELETE');
  await deferred('vectors_version_value', 'UPDATE OF value', 'WHEN (OLD.value IS DISTINCT FROM NEW.value)');
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const name of ['insert', 'delete', 'value']) await sql.raw(`DROP TRIGGER IF EXISTS vectors_version_${name} ON vectors`).execute(db);
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
  await sql.raw('CREATE TRIGGER vectors_version AFTER INSERT OR UPDATE OR DELETE ON vectors FOR EACH ROW EXECUTE FUNCTION bump_vector_set_version()').execute(db);
}
