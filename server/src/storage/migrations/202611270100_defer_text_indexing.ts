import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * SQLite: text indexing leaves the write transaction: writes append to `text_index_queue` and the
 * text indexer applies it (storage/search/text-indexer.ts). The FTS5 tables move out of the
 * records' file into the text index file beside it; the indexer rebuilds them there from the
 * records, as it does for any text index file it finds missing (text-index-file.ts).
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect === 'postgres') return; // PostgreSQL indexes in the write (text-index-writes.ts)
  await db.schema
    .createTable('text_index_queue')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('dataset_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('rid', 'bigint')
    .addColumn('op', 'smallint', (c) => c.notNull())
    .execute();
  // No index on dataset_id: a search looks for its dataset's rows among the few not yet applied
  // (text-indexer.ts caughtUp), and every write would pay for one.
  const { rows } = await sql<{ name: string }>`
    SELECT name FROM main.sqlite_master WHERE type = 'table' AND name GLOB 'fts_*' AND sql LIKE 'CREATE VIRTUAL TABLE%'`.execute(db);
  for (const { name } of rows) await sql.raw(`DROP TABLE main.${name}`).execute(db);
}
