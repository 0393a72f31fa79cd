import type { Kysely } from 'kysely';
import { requireAdminMember, requireMember, requireOwner } from '../../auth/access.js';
import type { Tables, UserRow } from '../../storage/tables.js';

type Db = Kysely<Tables>;

/**
 * Contract §1.5. `get` and `listUsers` are checked before the workspace is loaded, so a
 * non-member asking for an unknown workspace gets 403, and only an owner sees the 404.
 */
export const workspacePolicy = {
  /** Any member (admin or annotator), or an owner. */
  get: (db: Db, user: UserRow, workspaceId: string) => requireMember(db, user, workspaceId),
  create: (user: UserRow) => requireOwner(user),
  delete: (user: UserRow) => requireOwner(user),
  /** Admin members and owners. */
  listUsers: (db: Db, user: UserRow, workspaceId: string) => requireAdminMember(db, user, workspaceId),
  addUser: (user: UserRow) => requireOwner(user),
  /** Admin members and owners. */
  removeUser: (db: Db, user: UserRow, workspaceId: string) => requireAdminMember(db, user, workspaceId),
};
