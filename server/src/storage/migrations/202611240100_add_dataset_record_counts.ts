import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * `dataset_record_counts`: records per dataset and status, kept by triggers on `records`, so
 * progress, metrics and the annotation queue's totals read one row instead of counting every
 * record of the dataset (limits.md §2: ~55 ms per count at 1M records). Triggers, as for
 * `vector_set_versions`, so no write path has to know about the counters.
 * - SQLite: row triggers (writes are serialised anyway; a status trigger only fires on a change).
 * - PostgreSQL: statement triggers over transition tables, so a bulk write or a distribution
 *   change touches each counter row once per statement, not once per record.
 * A record delete only updates: when a dataset goes, its counter row may already be gone.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('dataset_record_counts')
    .addColumn('dataset_id', 'varchar(36)', (c) => c.primaryKey().references('datasets.id').onDelete('cascade'))
    .addColumn('pending', 'bigint', (c) => c.notNull())
    .addColumn('completed', 'bigint', (c) => c.notNull())
    .execute();
  if (dialect === 'sqlite') await createSqliteTriggers(db);
  else await createPostgresTriggers(db);
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

async function createPostgresTriggers(db: Kysely<unknown>): Promise<void> {
  // One function for the three events; `changes` holds +1 rows for new states and -1 for old ones.
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION count_dataset_records() RETURNS trigger AS $$
       BEGIN
         IF TG_OP = 'INSERT' THEN
           INSERT INTO dataset_record_counts AS c (dataset_id, pending, completed)
             SELECT dataset_id, count(*) FILTER (WHERE status = 'pending'), count(*) FILTER (WHERE status = 'completed')
             FROM new_records GROUP BY dataset_id
             ON CONFLICT (dataset_id) DO UPDATE SET pending = c.pending + excluded.pending, completed = c.completed + excluded.completed;
         ELSIF TG_OP = 'DELETE' THEN
           UPDATE dataset_record_counts c SET pending = c.pending - d.pending, completed = c.completed - d.completed
             FROM (SELECT dataset_id, count(*) FILTER (WHERE status = 'pending') AS pending, count(*) FILTER (WHERE status = 'completed') AS completed
                   FROM old_records GROUP BY dataset_id) d
             WHERE c.dataset_id = d.dataset_id;
         ELSE
           UPDATE dataset_record_counts c SET pending = c.pending + d.pending, completed = c.completed + d.completed
             FROM (SELECT n.dataset_id,
                          sum((n.status = 'pending')::int - (o.status = 'pending')::int) AS pending,
                          sum((n.status = 'completed')::int - (o.status = 'completed')::int) AS completed
                   FROM new_records n JOIN old_records o ON o.rid = n.rid
                   WHERE n.status IS DISTINCT FROM o.status GROUP BY n.dataset_id) d
             WHERE c.dataset_id = d.dataset_id;
         END IF;
         RETURN NULL;
       END $$ LANGUAGE plpgsql`,
    )
    .execute(db);
  await sql
    .raw('CREATE TRIGGER records_count_insert AFTER INSERT ON records REFERENCING NEW TABLE AS new_records FOR EACH STATEMENT EXECUTE FUNCTION count_dataset_records()')
    .execute(db);
  await sql
    .raw('CREATE TRIGGER records_count_delete AFTER DELETE ON records REFERENCING OLD TABLE AS old_records FOR EACH STATEMENT EXECUTE FUNCTION count_dataset_records()')
    .execute(db);
  await sql
    .raw(
      'CREATE TRIGGER records_count_update AFTER UPDATE ON records REFERENCING OLD TABLE AS old_records NEW TABLE AS new_records FOR EACH STATEMENT EXECUTE FUNCTION count_dataset_records()',
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect === 'sqlite') {
    for (const name of ['insert', 'delete', 'status']) await sql.raw(`DROP TRIGGER IF EXISTS records_count_${name}`).execute(db);
  } else {
    for (const name of ['insert', 'delete', 'update']) await sql.raw(`DROP TRIGGER IF EXISTS records_count_${name} ON records`).execute(db);
    await sql.raw('DROP FUNCTION IF EXISTS count_dataset_records()').execute(db);
  }
  await db.schema.dropTable('dataset_record_counts').ifExists().execute();
}
