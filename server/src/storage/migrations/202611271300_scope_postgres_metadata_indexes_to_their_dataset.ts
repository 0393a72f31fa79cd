import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * PostgreSQL: each metadata property's index covered every record of every dataset, so a record
 * written to one dataset added an entry to every dataset's metadata indexes; rebuilt as an index of
 * its own dataset's records only, as SQLite's were (202611270400).
 */
const indexName = (propertyId: string) => `mp_${propertyId.replace(/-/g, '')}`;
const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;

async function properties(db: Kysely<unknown>) {
  return (await sql<{ id: string; name: string; dataset_id: string }>`SELECT id, name, dataset_id FROM metadata_properties`.execute(db)).rows;
}

export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const property of await properties(db)) {
    await sql.raw(`DROP INDEX IF EXISTS ${indexName(property.id)}`).execute(db);
    await sql
      .raw(`CREATE INDEX ${indexName(property.id)} ON records (NULLIF(metadata -> ${quoted(property.name)}, 'null'::jsonb)) WHERE dataset_id = ${quoted(property.dataset_id)}`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const property of await properties(db)) {
    await sql.raw(`DROP INDEX IF EXISTS ${indexName(property.id)}`).execute(db);
    await sql.raw(`CREATE INDEX ${indexName(property.id)} ON records (dataset_id, NULLIF(metadata -> ${quoted(property.name)}, 'null'::jsonb))`).execute(db);
  }
}
