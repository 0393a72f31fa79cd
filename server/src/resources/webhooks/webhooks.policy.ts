import { requireOwner } from '../../auth/access.js';
import type { UserRow } from '../../storage/tables.js';

/** Contract §1.5: every webhook route is owner-only. */
export function authorizeWebhookAdministration(user: UserRow): void {
  requireOwner(user);
}
