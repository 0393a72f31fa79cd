import type { Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * `sign_in_limits` on PostgreSQL: the sign-in limits every server process shares, so instances
 * behind a load balancer count one client's or one username's attempts together. `key` names what
 * is counted (a hash of the client address or of the username, never the text itself); `count`,
 * and for a username `not_before`, are that limit's state; `expires_at` is when the row may go.
 * Times are epoch milliseconds. Several instances share a PostgreSQL database; on SQLite one
 * server process keeps these limits in its memory, so SQLite has no such table.
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.schema
    .createTable('sign_in_limits')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('not_before', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_limits_expiry_idx').on('sign_in_limits').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.schema.dropTable('sign_in_limits').ifExists().execute();
}
