import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * PostgreSQL: a vector's float64 bytes (3 KiB at 384 numbers) are past the size where PostgreSQL
 * tries to compress a row's values before moving them out of line, and such bytes do not compress:
 * each write paid for the attempt (about 10 µs a vector, measured with `INSERT ... SELECT` of
 * 20,000 vectors). Stored out of line as they are from now on; rows written before stay as they are.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`ALTER TABLE vectors ALTER COLUMN value SET STORAGE EXTERNAL`.execute(db);
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`ALTER TABLE vectors ALTER COLUMN value SET STORAGE EXTENDED`.execute(db);
}
