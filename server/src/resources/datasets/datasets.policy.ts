import type { Kysely } from 'kysely';
import { isOwner, isWorkspaceMember, requireAdminMember, requireMember } from '../../auth/access.js';
import { ForbiddenError } from '../../errors.js';
import type { DatasetRow, Tables, UserRow } from '../../storage/tables.js';

/**
 * Dataset policies (contract §1.5). Reading a dataset and its settings needs workspace
 * membership; changing it needs an admin member (owners always pass).
 */
export async function authorizeDatasetList(db: Kysely<Tables>, user: UserRow, workspaceId: string | undefined): Promise<void> {
  if (workspaceId === undefined || isOwner(user)) return;
  if (!(await isWorkspaceMember(db, user, workspaceId))) throw new ForbiddenError();
}

/** Checked before loading anything: the workspace may not exist (then owners get the 422). */
export const authorizeDatasetCreate = (db: Kysely<Tables>, user: UserRow, workspaceId: string) => requireAdminMember(db, user, workspaceId);

export const authorizeDatasetRead = (db: Kysely<Tables>, user: UserRow, dataset: DatasetRow) => requireMember(db, user, dataset.workspace_id);

/** Update, delete, publish, and create/update/delete of its fields, questions, metadata properties, vector settings. */
export const authorizeDatasetWrite = (db: Kysely<Tables>, user: UserRow, dataset: DatasetRow) =>
  requireAdminMember(db, user, dataset.workspace_id);
