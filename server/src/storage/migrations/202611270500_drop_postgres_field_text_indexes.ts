import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * PostgreSQL text indexes keep one GIN index, on `doc`: the per-field indexes (`fts_<dataset>_c<N>`)
 * doubled the index entries each record adds; a search in one field now finds its candidates
 * through `doc`. SQLite's FTS5 tables are unchanged.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  const { rows } = await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes
    WHERE schemaname = current_schema() AND indexname ~ '^fts_[0-9a-f]{32}_c[0-9]+$'`.execute(db);
  for (const { name } of rows) await sql.raw(`DROP INDEX IF EXISTS ${name}`).execute(db);
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  const { rows } = await sql<{ table: string; column: string }>`SELECT c.table_name AS "table", c.column_name AS "column" FROM information_schema.columns c
    WHERE c.table_schema = current_schema() AND c.table_name ~ '^fts_[0-9a-f]{32}$' AND c.column_name ~ '^c[0-9]+$'`.execute(db);
  for (const { table, column } of rows) {
    await sql.raw(`CREATE INDEX IF NOT EXISTS ${table}_${column} ON ${table} USING gin (${column})`).execute(db);
  }
}
