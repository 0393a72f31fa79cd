import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * PostgreSQL: records lose their foreign key to their dataset. Its check locked the dataset row
 * (FOR KEY SHARE) once per inserted record, ~9 µs each; a record write now takes that lock once
 * (holdDatasetForRecordWrites), and deleting a dataset deletes its records before it
 * (datasets.repository.ts). The records' own relations keep their keys to records. SQLite keeps
 * the key: its check is an index lookup in-process.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`ALTER TABLE records DROP CONSTRAINT IF EXISTS records_dataset_id_fkey`.execute(db);
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`DELETE FROM records r WHERE NOT EXISTS (SELECT 1 FROM datasets d WHERE d.id = r.dataset_id)`.execute(db);
  await sql`ALTER TABLE records ADD FOREIGN KEY (dataset_id) REFERENCES datasets(id) ON DELETE CASCADE`.execute(db);
}
