import type { Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * `record_validations` (Scholia extension, spec §4 "Validate"): the final answer an owner or admin
 * settled on for a record, with who validated it and when. One row per record; deleting the row
 * reopens the record. The record's own `status` stays pending/completed for the SDK.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('record_validations')
    .addColumn('record_id', 'varchar(36)', (c) => c.primaryKey().references('records.id').onDelete('cascade'))
    .addColumn('dataset_id', 'varchar(36)', (c) => c.notNull().references('datasets.id').onDelete('cascade'))
    .addColumn('values', dialect === 'postgres' ? 'jsonb' : 'text', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('inserted_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('record_validations_dataset_idx').on('record_validations').column('dataset_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('record_validations').execute();
}
