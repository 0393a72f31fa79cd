import type { Kysely } from 'kysely';
import type { WorkspaceCreateBody } from '@scholia/shared/contract';
import { isOwner } from '../../auth/access.js';
import { ConflictError, NotFoundError, UnprocessableError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { nowTimestamp } from '../../lib/time.js';
import * as users from '../../storage/repositories/users.repository.js';
import * as workspaces from '../../storage/repositories/workspaces.repository.js';
import type { Tables, UserRow, WorkspaceRow } from '../../storage/tables.js';

type Db = Kysely<Tables>;

/** The workspace with this id, or 404 `` Workspace with id `x` not found ``. */
export async function getWorkspace(db: Db, id: string): Promise<WorkspaceRow> {
  const workspace = await workspaces.findWorkspaceById(db, id);
  if (!workspace) throw new NotFoundError(`Workspace with id \`${id}\` not found`);
  return workspace;
}

/**
 * The workspaces a user works in, in creation order (contract §2.3): all of them for an owner,
 * the memberships for anyone else. The SDK's default workspace is the first one.
 */
export function listWorkspacesOf(db: Db, user: UserRow): Promise<WorkspaceRow[]> {
  return isOwner(user) ? workspaces.listWorkspaces(db) : workspaces.listWorkspacesOfUser(db, user.id);
}

/** Names are unique server-wide; a client-chosen id must be free too. */
export async function createWorkspace(db: Db, input: WorkspaceCreateBody): Promise<WorkspaceRow> {
  return db.transaction().execute(async (trx) => {
    if (await workspaces.findWorkspaceByName(trx, input.name)) {
      throw new ConflictError(`Workspace name \`${input.name}\` is not unique`);
    }
    if (input.id && (await workspaces.findWorkspaceById(trx, input.id))) {
      throw new ConflictError(`Workspace with id \`${input.id}\` is not unique`);
    }
    const now = nowTimestamp();
    return workspaces.insertWorkspace(trx, { id: input.id ?? newId(), name: input.name, inserted_at: now, updated_at: now });
  });
}

/** Contract §6.2: a workspace that still holds datasets cannot be deleted (409). */
export async function deleteWorkspace(db: Db, workspace: WorkspaceRow): Promise<WorkspaceRow> {
  return db.transaction().execute(async (trx) => {
    if (await workspaces.workspaceHasDatasets(trx, workspace.id)) {
      throw new ConflictError(`Cannot delete the workspace ${workspace.id}. This workspace has some datasets linked`);
    }
    await workspaces.deleteWorkspace(trx, workspace.id);
    return workspace;
  });
}

/** Members of any role, oldest account first (includes their api keys: the caller is an admin or owner). */
export const listWorkspaceUsers = (db: Db, workspace: WorkspaceRow): Promise<UserRow[]> =>
  users.listUsersOfWorkspace(db, workspace.id);

/**
 * Adds a member. An unknown user is a 422 (the body names it, not the path), a second
 * membership a 409. Returns the added user.
 */
export async function addWorkspaceUser(db: Db, workspace: WorkspaceRow, userId: string): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const user = await users.findUserById(trx, userId);
    if (!user) throw new UnprocessableError(`User with id \`${userId}\` not found`);
    if (await workspaces.findWorkspaceUser(trx, workspace.id, user.id)) {
      throw new ConflictError(
        `Workspace user with workspace_id \`${workspace.id}\` and user_id \`${user.id}\` is not unique`,
      );
    }
    await workspaces.insertWorkspaceUser(trx, { workspace_id: workspace.id, user_id: user.id, inserted_at: nowTimestamp() });
    return user;
  });
}

/** The membership to remove, or 404 `WorkspaceUser not found filtering by workspace_id=..., user_id=...`. */
export async function getWorkspaceUser(db: Db, workspaceId: string, userId: string): Promise<UserRow> {
  const membership = await workspaces.findWorkspaceUser(db, workspaceId, userId);
  const user = membership && (await users.findUserById(db, userId));
  if (!user) throw new NotFoundError(`WorkspaceUser not found filtering by workspace_id=${workspaceId}, user_id=${userId}`);
  return user;
}

/** Removes the membership; returns the user who left. */
export async function removeWorkspaceUser(db: Db, workspaceId: string, user: UserRow): Promise<UserRow> {
  await workspaces.deleteWorkspaceUser(db, workspaceId, user.id);
  return user;
}
