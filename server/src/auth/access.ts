import type { Kysely } from 'kysely';
import { ForbiddenError } from '../errors.js';
import type { Tables, UserRow } from '../storage/tables.js';
import { preparedQuery } from '../storage/prepared-query.js';

/**
 * The building blocks of the policy matrix (contract §1.5). Resource policies combine them;
 * each throws ForbiddenError (403) when the user may not act.
 */
export const isOwner = (user: UserRow) => user.role === 'owner';
export const isAdminOrOwner = (user: UserRow) => user.role === 'owner' || user.role === 'admin';

export function requireOwner(user: UserRow): void {
  if (!isOwner(user)) throw new ForbiddenError();
}

const membership = preparedQuery((db, workspaceId: string, userId: string) =>
  db.selectFrom('workspace_users').select('user_id').where('workspace_id', '=', workspaceId).where('user_id', '=', userId),
);

/**
 * `knownMembership`: whether workspace_users holds the user, when the caller read it already
 * (with the resource, in one query); looked up otherwise.
 */
export async function isWorkspaceMember(db: Kysely<Tables>, user: UserRow, workspaceId: string, knownMembership?: boolean): Promise<boolean> {
  if (isOwner(user)) return true;
  if (knownMembership !== undefined) return knownMembership;
  return (await membership.first(db, workspaceId, user.id)) !== undefined;
}

/** Owner, or any member (admin or annotator) of the workspace. */
export async function requireMember(db: Kysely<Tables>, user: UserRow, workspaceId: string, knownMembership?: boolean): Promise<void> {
  if (!(await isWorkspaceMember(db, user, workspaceId, knownMembership))) throw new ForbiddenError();
}

/** Owner, or an admin who is a member of the workspace. */
export async function requireAdminMember(db: Kysely<Tables>, user: UserRow, workspaceId: string, knownMembership?: boolean): Promise<void> {
  if (isOwner(user)) return;
  if (user.role !== 'admin' || !(await isWorkspaceMember(db, user, workspaceId, knownMembership))) throw new ForbiddenError();
}
