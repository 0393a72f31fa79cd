import type { Kysely } from 'kysely';

/**
 * `webhook_deliveries`: the webhook outbox and delivery log. A row is written in the transaction of
 * the change that raises the event, so an event is sent exactly when its change is committed, and
 * survives restarts; the deliverer (webhooks/webhook-deliverer.ts) claims pending rows one at a
 * time across server processes and records each attempt on the row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = 'varchar(32)';
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('webhook_id', 'varchar(36)', (c) => c.notNull())
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
  await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_webhook_idx').on('webhook_deliveries').columns(['webhook_id', 'inserted_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').ifExists().execute();
}
