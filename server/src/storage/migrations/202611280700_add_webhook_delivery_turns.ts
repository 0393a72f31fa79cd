import type { Kysely } from 'kysely';

/**
 * Deliveries take turns per webhook. `webhooks.sending_by` + `sending_since`: the process sending
 * the webhook's one delivery in flight (a claim older than the stale limit belongs to a process
 * that stopped); `served_at`: when the webhook last had a turn, so the deliverer serves the webhook
 * that waited longest first. A slow target then holds up only its own deliveries.
 * `webhook_deliveries_queue_idx` finds a webhook's oldest pending delivery without reading its log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhooks').addColumn('sending_by', 'text').execute();
  await db.schema.alterTable('webhooks').addColumn('sending_since', 'varchar(32)').execute();
  await db.schema.alterTable('webhooks').addColumn('served_at', 'varchar(32)').execute();
  await db.schema
    .createIndex('webhook_deliveries_queue_idx')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'status', 'inserted_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_queue_idx').execute();
  await db.schema.alterTable('webhooks').dropColumn('served_at').execute();
  await db.schema.alterTable('webhooks').dropColumn('sending_since').execute();
  await db.schema.alterTable('webhooks').dropColumn('sending_by').execute();
}
