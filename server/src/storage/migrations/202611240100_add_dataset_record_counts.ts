import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * `dataset_record_counts` (SQLite): records per dataset and status, kept by triggers on
 * `records`, so progress, metrics and the annotation queue's totals read one row instead of
 * counting every record of the dataset (limits.md §2: ~55 ms per count at 1M records). Triggers,
 * as for `vector_set_versions`, so no write path has to know about the counters. A status trigger
 * only fires on a change; a record delete only updates, since when a dataset goes its counter
 * row may already be gone.
 *
 * PostgreSQL keeps counting (index-only scans): one counter row per dataset would be locked by
 * every writer until commit, so a bulk re-log holding it while it waits for a record an annotator
 * is submitting on, while that submit waits for the counter, would deadlock.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'sqlite') return;
  await db.schema
    .createTable('dataset_record_counts')
    .addColumn('dataset_id', 'varchar(36)', (c) => c.primaryKey().references('datasets.id').onDelete('cascade'))
    .addColumn('pending', 'bigint', (c) => c.notNull())
    .addColumn('completed', 'bigint', (c) => c.notNull())
    .execute();
  await createSqliteTriggers(db);
  await sql`
    INSERT INTO dataset_record_counts (dataset_id, pending, completed)
    SELECT dataset_id, sum(CASE WHEN status = 'pending' THEN 1 ELSE 0 END), sum(CASE WHEN status = 'completed' THEN 1 ELSE 0 END)
    FROM records GROUP BY dataset_id`.execute(db);
}

async function createSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const delta = (row: 'NEW' | 'OLD', status: string) => `(CASE WHEN ${row}.status = '${status}' THEN 1 ELSE 0 END)`;
  await sql
    .raw(
      `CREATE TRIGGER records_count_insert AFTER INSERT ON records BEGIN
         INSERT INTO dataset_record_counts (dataset_id, pending, completed)
           VALUES (NEW.dataset_id, ${delta('NEW', 'pending')}, ${delta('NEW', 'completed')})
           ON CONFLICT (dataset_id) DO UPDATE SET pending = pending + excluded.pending, completed = completed + excluded.completed;
       END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER records_count_delete AFTER DELETE ON records BEGIN
         UPDATE dataset_record_counts SET pending = pending - ${delta('OLD', 'pending')}, completed = completed - ${delta('OLD', 'completed')}
           WHERE dataset_id = OLD.dataset_id;
       END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER records_count_status AFTER UPDATE OF status ON records WHEN OLD.status IS NOT NEW.status BEGIN
         UPDATE dataset_record_counts
           SET pending = pending + ${delta('NEW', 'pending')} - ${delta('OLD', 'pending')},
               completed = completed + ${delta('NEW', 'completed')} - ${delta('OLD', 'completed')}
           WHERE dataset_id = NEW.dataset_id;
       END`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'sqlite') return;
  for (const name of ['insert', 'delete', 'status']) await sql.raw(`DROP TRIGGER IF EXISTS records_count_${name}`).execute(db);
  await db.schema.dropTable('dataset_record_counts').ifExists().execute();
}
