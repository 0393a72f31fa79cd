import type { Kysely } from 'kysely';

/**
 * `users.token_version`: access tokens carry the version they were issued under, and a password
 * change or API-key rotation bumps it, so every earlier token of that user stops working.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('token_version').execute();
}
