import type { Kysely } from 'kysely';

/**
 * `users.identity_provider` + `users.identity_subject`: the sign-in provider (e.g. `huggingface`)
 * and its stable subject (`sub`) an account is linked to. A provider sign-in finds its account by
 * this pair alone, never by username, so no provider user can claim a local account by its name.
 * Unique together; unlinked accounts hold NULLs, which both databases let repeat.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('identity_provider', 'varchar(64)').execute();
  await db.schema.alterTable('users').addColumn('identity_subject', 'varchar(255)').execute();
  await db.schema
    .createIndex('users_identity_unique')
    .on('users')
    .columns(['identity_provider', 'identity_subject'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_identity_unique').execute();
  await db.schema.alterTable('users').dropColumn('identity_subject').execute();
  await db.schema.alterTable('users').dropColumn('identity_provider').execute();
}
