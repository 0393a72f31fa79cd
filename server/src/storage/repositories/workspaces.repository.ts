import type { Kysely } from 'kysely';
import type { Tables, WorkspaceRow, WorkspaceUserRow } from '../tables.js';

type Db = Kysely<Tables>;

export const findWorkspaceById = (db: Db, id: string) =>
  db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();

export const findWorkspaceByName = (db: Db, name: string) =>
  db.selectFrom('workspaces').selectAll().where('name', '=', name).executeTakeFirst();

/** Every workspace, in creation order (contract §2.3). */
export const listWorkspaces = (db: Db) => db.selectFrom('workspaces').selectAll().orderBy('inserted_at').execute();

/** The workspaces a user is a member of, in creation order of the workspaces. */
export const listWorkspacesOfUser = (db: Db, userId: string) =>
  db
    .selectFrom('workspaces')
    .innerJoin('workspace_users', 'workspace_users.workspace_id', 'workspaces.id')
    .selectAll('workspaces')
    .where('workspace_users.user_id', '=', userId)
    .orderBy('workspaces.inserted_at')
    .execute();

export async function insertWorkspace(db: Db, row: WorkspaceRow): Promise<WorkspaceRow> {
  await db.insertInto('workspaces').values(row).execute();
  return row;
}

/** Deletes the workspace; its memberships go with it (ON DELETE CASCADE). */
export async function deleteWorkspace(db: Db, id: string): Promise<void> {
  await db.deleteFrom('workspace_users').where('workspace_id', '=', id).execute();
  await db.deleteFrom('workspaces').where('id', '=', id).execute();
}

/** True when at least one dataset (draft or published) belongs to the workspace. */
export async function workspaceHasDatasets(db: Db, workspaceId: string): Promise<boolean> {
  const row = await db.selectFrom('datasets').select('id').where('workspace_id', '=', workspaceId).limit(1).executeTakeFirst();
  return row !== undefined;
}

export const findWorkspaceUser = (db: Db, workspaceId: string, userId: string) =>
  db
    .selectFrom('workspace_users')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

export async function insertWorkspaceUser(db: Db, row: WorkspaceUserRow): Promise<WorkspaceUserRow> {
  await db.insertInto('workspace_users').values(row).execute();
  return row;
}

export async function deleteWorkspaceUser(db: Db, workspaceId: string, userId: string): Promise<void> {
  await db.deleteFrom('workspace_users').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
}
