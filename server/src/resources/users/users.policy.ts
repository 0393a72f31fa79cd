import { requireOwner } from '../../auth/access.js';
import type { UserRow } from '../../storage/tables.js';

/** Contract §1.5: every `/users` route, `/users/{id}/workspaces` included, is owner-only. */
export function authorizeUserAdministration(user: UserRow): void {
  requireOwner(user);
}
