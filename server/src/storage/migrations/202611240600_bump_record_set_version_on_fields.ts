import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * `record_set_versions` also changes when a record's field values change: the text champions
 * (storage/search/text-champions.ts) are built from the fields, as the metadata columns are from
 * the metadata, and must know when they are stale. Response and status writes still leave it alone.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect === 'postgres') {
    await sql
      .raw(
        `CREATE CONSTRAINT TRIGGER records_version_fields AFTER UPDATE OF fields ON records DEFERRABLE INITIALLY DEFERRED
         FOR EACH ROW WHEN (OLD.fields IS DISTINCT FROM NEW.fields) EXECUTE FUNCTION bump_record_set_version()`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(`CREATE TRIGGER records_version_fields AFTER UPDATE OF fields ON records WHEN OLD.fields IS NOT NEW.fields
          BEGIN
            INSERT INTO record_set_versions (dataset_id, version) VALUES (NEW.dataset_id, 1)
              ON CONFLICT (dataset_id) DO UPDATE SET version = version + 1;
          END`)
    .execute(db);
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  await sql.raw(`DROP TRIGGER IF EXISTS records_version_fields${dialect === 'postgres' ? ' ON records' : ''}`).execute(db);
}
