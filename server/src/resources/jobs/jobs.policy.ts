import { isAdminOrOwner } from '../../auth/access.js';
import { ForbiddenError } from '../../errors.js';
import type { UserRow } from '../../storage/tables.js';

/** Contract §1.5: any admin (member or not) and owners may poll jobs; annotators may not. */
export function authorizeJobRead(user: UserRow): void {
  if (!isAdminOrOwner(user)) throw new ForbiddenError();
}
