import type { Kysely } from 'kysely';

/**
 * `instance_settings`: values every process of one installation must share, whatever its data
 * folder; first of them the signing secret (bootstrap/shared-secret.ts), so a token issued by
 * one server instance is accepted by another on the same database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('instance_settings')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('inserted_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('instance_settings').ifExists().execute();
}
