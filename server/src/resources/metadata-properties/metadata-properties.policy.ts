import type { Kysely } from 'kysely';
import { isOwner, requireMember } from '../../auth/access.js';
import { ForbiddenError } from '../../errors.js';
import { fromFlag } from '../../storage/json.js';
import type { DatasetRow, MetadataPropertyRow, Tables, UserRow } from '../../storage/tables.js';

/** Contract §1.5: admins see every property, annotators only those visible to them. */
export function canSeeMetadataProperty(user: UserRow, property: MetadataPropertyRow): boolean {
  return user.role !== 'annotator' || fromFlag(property.visible_for_annotators);
}

/** Metadata property metrics: a workspace member who may see the property. */
export async function authorizeMetadataPropertyRead(
  db: Kysely<Tables>,
  user: UserRow,
  dataset: DatasetRow,
  property: MetadataPropertyRow,
): Promise<void> {
  if (isOwner(user)) return;
  await requireMember(db, user, dataset.workspace_id);
  if (!canSeeMetadataProperty(user, property)) throw new ForbiddenError();
}
