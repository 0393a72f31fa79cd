import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * PostgreSQL checks each foreign key of each inserted row with a query of its own, ~9 µs a key
 * (a profile of a bulk ingestion put these checks at a sixth of PostgreSQL's time). Dropped here
 * are the keys that neither guard nor cascade anything the records' own keys do not:
 * - `suggestions.dataset_id` and `vectors.dataset_id`: copies of their record's dataset, set by
 *   the server from it; a deleted dataset takes its records, and they their suggestions and vectors.
 * - `suggestions.question_id`: questions of a published dataset cannot be deleted, and only a
 *   published dataset holds records (questions.service.ts, records.service.ts).
 * - each text index table's `rid`: its rows are written in the transaction that writes their
 *   record, deleted with it (text-index-writes.ts), and dropped with the dataset.
 * SQLite checks a key with an index lookup in-process and keeps them all.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`ALTER TABLE suggestions DROP CONSTRAINT IF EXISTS suggestions_dataset_id_fkey`.execute(db);
  await sql`ALTER TABLE suggestions DROP CONSTRAINT IF EXISTS suggestions_question_id_fkey`.execute(db);
  await sql`ALTER TABLE vectors DROP CONSTRAINT IF EXISTS vectors_dataset_id_fkey`.execute(db);
  for (const { table, name } of await textIndexForeignKeys(db)) {
    await sql.raw(`ALTER TABLE ${table} DROP CONSTRAINT ${name}`).execute(db);
  }
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`ALTER TABLE suggestions ADD FOREIGN KEY (dataset_id) REFERENCES datasets(id) ON DELETE CASCADE`.execute(db);
  await sql`ALTER TABLE suggestions ADD FOREIGN KEY (question_id) REFERENCES questions(id) ON DELETE CASCADE`.execute(db);
  await sql`ALTER TABLE vectors ADD FOREIGN KEY (dataset_id) REFERENCES datasets(id) ON DELETE CASCADE`.execute(db);
  const { rows } = await sql<{ table: string }>`SELECT tablename AS "table" FROM pg_tables
    WHERE schemaname = current_schema() AND tablename ~ '^fts_[0-9a-f]{32}$'`.execute(db);
  for (const { table } of rows) {
    await sql.raw(`DELETE FROM ${table} t WHERE NOT EXISTS (SELECT 1 FROM records r WHERE r.rid = t.rid)`).execute(db);
    await sql.raw(`ALTER TABLE ${table} ADD FOREIGN KEY (rid) REFERENCES records(rid) ON DELETE CASCADE`).execute(db);
  }
}

async function textIndexForeignKeys(db: Kysely<unknown>): Promise<{ table: string; name: string }[]> {
  const { rows } = await sql<{ table: string; name: string }>`SELECT c.relname AS "table", k.conname AS name
    FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
    WHERE k.contype = 'f' AND c.relnamespace = current_schema()::regnamespace AND c.relname ~ '^fts_[0-9a-f]{32}$'`.execute(db);
  return rows;
}
