import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * `record_set_versions` (SQLite): a number per dataset that changes whenever a record is added,
 * removed or has its metadata changed, bumped by triggers on `records` (as `vector_set_versions`
 * is on vectors), so the in-memory metadata columns of a large dataset
 * (storage/search/metadata-columns.ts) know when they are stale without any write path knowing
 * about them. Status and field changes leave it alone: they do not touch what the columns hold.
 *
 * PostgreSQL gets its own, commit-time variant in 202611240500.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'sqlite') return;
  await db.schema
    .createTable('record_set_versions')
    .addColumn('dataset_id', 'varchar(36)', (c) => c.primaryKey().references('datasets.id').onDelete('cascade'))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  const bump = (row: 'NEW' | 'OLD') =>
    `INSERT INTO record_set_versions (dataset_id, version) VALUES (${row}.dataset_id, 1)
       ON CONFLICT (dataset_id) DO UPDATE SET version = version + 1;`;
  await sql.raw(`CREATE TRIGGER records_version_insert AFTER INSERT ON records BEGIN ${bump('NEW')} END`).execute(db);
  // A delete only updates: when a whole dataset goes, its version row may already be gone.
  await sql
    .raw(`CREATE TRIGGER records_version_delete AFTER DELETE ON records BEGIN
            UPDATE record_set_versions SET version = version + 1 WHERE dataset_id = OLD.dataset_id;
          END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER records_version_metadata AFTER UPDATE OF metadata ON records WHEN OLD.metadata IS NOT NEW.metadata
          BEGIN ${bump('NEW')} END`)
    .execute(db);
  await sql`INSERT INTO record_set_versions (dataset_id, version) SELECT DISTINCT dataset_id, 1 FROM records`.execute(db);
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'sqlite') return;
  for (const name of ['insert', 'delete', 'metadata']) await sql.raw(`DROP TRIGGER IF EXISTS records_version_${name}`).execute(db);
  await db.schema.dropTable('record_set_versions').ifExists().execute();
}
