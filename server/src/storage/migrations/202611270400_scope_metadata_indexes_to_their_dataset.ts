import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * SQLite: each metadata property's expression index covered every record of every dataset, and
 * each insert paid for a random position in all of them; rebuilt as an index of its own
 * dataset's records only (as dataset-settings.repository.ts creates them now). PostgreSQL keeps
 * its indexes.
 */
const indexName = (propertyId: string) => `mp_${propertyId.replace(/-/g, '')}`;
const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;
const keyPath = (name: string) => quoted(`$.${JSON.stringify(name)}`);

export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'sqlite') return;
  const { rows } = await sql<{ id: string; name: string; dataset_id: string }>`SELECT id, name, dataset_id FROM metadata_properties`.execute(db);
  for (const property of rows) {
    await sql.raw(`DROP INDEX IF EXISTS ${indexName(property.id)}`).execute(db);
    await sql
      .raw(`CREATE INDEX ${indexName(property.id)} ON records(json_extract(metadata, ${keyPath(property.name)})) WHERE dataset_id = ${quoted(property.dataset_id)}`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'sqlite') return;
  const { rows } = await sql<{ id: string; name: string }>`SELECT id, name FROM metadata_properties`.execute(db);
  for (const property of rows) {
    await sql.raw(`DROP INDEX IF EXISTS ${indexName(property.id)}`).execute(db);
    await sql.raw(`CREATE INDEX ${indexName(property.id)} ON records(dataset_id, json_extract(metadata, ${keyPath(property.name)}))`).execute(db);
  }
}
