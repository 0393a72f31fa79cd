import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * `webhook_deliveries.webhook_id` references its webhook, ON DELETE CASCADE: a deleted webhook's
 * log and pending deliveries go with it instead of staying behind for good. Deliveries of webhooks
 * already deleted are removed first. SQLite cannot add a foreign key to a table: it is rebuilt.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  await sql`DELETE FROM webhook_deliveries WHERE webhook_id NOT IN (SELECT id FROM webhooks)`.execute(db);
  if (dialect === 'postgres') {
    await sql`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_webhook_fk
                FOREIGN KEY (webhook_id) REFERENCES webhooks (id) ON DELETE CASCADE`.execute(db);
    return;
  }
  await createDeliveries(db, 'webhook_deliveries_next', true);
  await sql`INSERT INTO webhook_deliveries_next SELECT * FROM webhook_deliveries`.execute(db);
  await db.schema.dropTable('webhook_deliveries').execute();
  await sql`ALTER TABLE webhook_deliveries_next RENAME TO webhook_deliveries`.execute(db);
  await createIndexes(db);
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect === 'postgres') {
    await sql`ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_webhook_fk`.execute(db);
    return;
  }
  await createDeliveries(db, 'webhook_deliveries_next', false);
  await sql`INSERT INTO webhook_deliveries_next SELECT * FROM webhook_deliveries`.execute(db);
  await db.schema.dropTable('webhook_deliveries').execute();
  await sql`ALTER TABLE webhook_deliveries_next RENAME TO webhook_deliveries`.execute(db);
  await createIndexes(db);
}

/** The table of 202611250400, columns in the same order, with or without the foreign key. */
async function createDeliveries(db: Kysely<unknown>, name: string, withKey: boolean): Promise<void> {
  const ts = 'varchar(32)';
  await db.schema
    .createTable(name)
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('webhook_id', 'varchar(36)', (c) => (withKey ? c.notNull().references('webhooks.id').onDelete('cascade') : c.notNull()))
    .addColumn('event', 'varchar(64)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ts, (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('inserted_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
}

async function createIndexes(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_webhook_idx').on('webhook_deliveries').columns(['webhook_id', 'inserted_at']).execute();
}
