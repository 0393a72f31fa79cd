import type { Kysely } from 'kysely';
import type { Tables, UserRow } from '../tables.js';
import { preparedQuery } from '../prepared-query.js';

type Db = Kysely<Tables>;

const userById = preparedQuery((db, id: string) => db.selectFrom('users').selectAll().where('id', '=', id));
export const findUserById = (db: Db, id: string) => userById.first(db, id);

export const findUserByUsername = (db: Db, username: string) =>
  db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();

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

export async function insertUser(db: Db, row: UserRow): Promise<UserRow> {
  await db.insertInto('users').values(row).execute();
  return row;
}

export async function updateUser(db: Db, id: string, changes: Partial<UserRow>): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

export async function deleteUser(db: Db, id: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}
