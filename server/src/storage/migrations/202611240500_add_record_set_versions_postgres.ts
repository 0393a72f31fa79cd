import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * `record_set_versions` on PostgreSQL (SQLite has had it since 202611240400), so the in-memory
 * metadata columns of a large dataset serve PostgreSQL too, in every server process.
 *
 * An ordinary trigger would lock the dataset's version row from a transaction's first record
 * write until its commit: two bulk writes to one dataset would then hold it while each waits
 * for record rows the other has (the deadlock described in 202611240100). These triggers are
 * deferred to commit instead, when the transaction has taken every other lock it needs, so the
 * row is held only while a transaction commits; the first event of a dataset in a transaction
 * bumps it and marks the transaction (a transaction-local setting), the rest return at once.
 * The bump commits with the records, so a reader that sees the new rows sees the new version.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.schema
    .createTable('record_set_versions')
    .addColumn('dataset_id', 'varchar(36)', (c) => c.primaryKey().references('datasets.id').onDelete('cascade'))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION bump_record_set_version() RETURNS trigger AS $$
       DECLARE
         dataset varchar(36);
         marker text;
       BEGIN
         IF TG_OP = 'DELETE' THEN dataset := OLD.dataset_id; ELSE dataset := NEW.dataset_id; END IF;
         marker := 'scholia.record_set_' || replace(dataset, '-', '');
         IF current_setting(marker, true) = 'bumped' THEN RETURN NULL; END IF;
         PERFORM set_config(marker, 'bumped', true);
         -- A dataset deleted in this transaction has no version to keep.
         INSERT INTO record_set_versions (dataset_id, version)
           SELECT dataset, 1 WHERE EXISTS (SELECT 1 FROM datasets WHERE id = dataset)
           ON CONFLICT (dataset_id) DO UPDATE SET version = record_set_versions.version + 1;
         RETURN NULL;
       END $$ LANGUAGE plpgsql`,
    )
    .execute(db);
  const deferred = (name: string, event: string, when = '') =>
    sql
      .raw(
        `CREATE CONSTRAINT TRIGGER ${name} AFTER ${event} ON records DEFERRABLE INITIALLY DEFERRED
         FOR EACH ROW ${when} EXECUTE FUNCTION bump_record_set_version()`,
      )
      .execute(db);
  await deferred('records_version_insert', 'INSERT');
  await deferred('records_version_delete', 'DELETE');
  await deferred('records_version_metadata', 'UPDATE OF metadata', 'WHEN (OLD.metadata IS DISTINCT FROM NEW.metadata)');
  await sql`INSERT INTO record_set_versions (dataset_id, version) SELECT DISTINCT dataset_id, 1 FROM records`.execute(db);
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const name of ['insert', 'delete', 'metadata']) await sql.raw(`DROP TRIGGER IF EXISTS records_version_${name} ON records`).execute(db);
  await sql.raw('DROP FUNCTION IF EXISTS bump_record_set_version()').execute(db);
  await db.schema.dropTable('record_set_versions').ifExists().execute();
}
