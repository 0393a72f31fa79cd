import type { Kysely } from 'kysely';
import type { Tables, UserRow } from '../tables.js';
import { preparedQuery } from '../prepared-query.js';

type Db = Kysely<Tables>;

const userById = preparedQuery((db, id: string) => db.selectFrom('users').selectAll().where('id', '=', id));
export const findUserById = (db: Db, id: string) => userById.first(db, id);

export const findUserByUsername = (db: Db, username: string) =>
  db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();

/** Which of these usernames are taken. */
export const findTakenUsernames = async (db: Db, usernames: string[]): Promise<Set<string>> =>
  new Set((await db.selectFrom('users').select('username').where('username', 'in', usernames).execute()).map((row) => row.username));

const userByApiKey = preparedQuery((db, apiKey: string) => db.selectFrom('users').selectAll().where('api_key', '=', apiKey));
/** Every API-key request runs this: compiled once (storage/prepared-query.ts). */
export const findUserByApiKey = (db: Db, apiKey: string) => userByApiKey.first(db, apiKey);

/** Contract §0: lists are in `inserted_at` order. */
export const listUsers = (db: Db) => db.selectFrom('users').selectAll().orderBy('inserted_at').execute();

/** Members of a workspace (any role), oldest account first. */
export const listUsersOfWorkspace = (db: Db, workspaceId: string) =>
  db
    .selectFrom('users')
    .innerJoin('workspace_users', 'workspace_users.user_id', 'users.id')
    .selectAll('users')
    .where('workspace_users.workspace_id', '=', workspaceId)
    .orderBy('users.inserted_at')
    .execute();

export const countUsers = async (db: Db) =>
  Number((await db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** The account linked to this sign-in provider's subject, if any. */
export const findUserByIdentity = (db: Db, provider: string, subject: string) =>
  db.selectFrom('users').selectAll().where('identity_provider', '=', provider).where('identity_subject', '=', subject).executeTakeFirst();

/** Every account linked to a sign-in provider, oldest first. */
export const listLinkedUsers = (db: Db) =>
  db.selectFrom('users').selectAll().where('identity_provider', 'is not', null).orderBy('inserted_at').execute();

/** Links the account to a provider's subject, or unlinks it (both null). */
export async function setUserIdentity(db: Db, id: string, identity: { provider: string; subject: string } | null, updatedAt: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ identity_provider: identity?.provider ?? null, identity_subject: identity?.subject ?? null, updated_at: updatedAt })
    .where('id', '=', id)
    .execute();
}

/** A user as created: its token version starts at 0; linked to a provider only when given. */
export type NewUser = Omit<UserRow, 'token_version' | 'identity_provider' | 'identity_subject'> &
  Partial<Pick<UserRow, 'identity_provider' | 'identity_subject'>>;

export async function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  const row: UserRow = { identity_provider: null, identity_subject: null, ...user, token_version: 0 };
  await db.insertInto('users').values(row).execute();
  return row;
}

export async function updateUser(db: Db, id: string, changes: Partial<UserRow>): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

/**
 * Replaces the user's credentials (API key, password or both) and bumps its token version in one
 * statement, so what is replaced and every token issued before stop working together.
 */
export async function replaceCredentials(db: Db, id: string, changes: Partial<UserRow> & ({ api_key: string } | { password_hash: string })): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ ...changes, token_version: eb('token_version', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export const countOwners = async (db: Db) =>
  Number((await db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).where('role', '=', 'owner').executeTakeFirstOrThrow()).n);

export async function deleteUser(db: Db, id: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}
