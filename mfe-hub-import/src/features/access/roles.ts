import type { Role } from '@scholia/shared/api';

/** Only admins and owners create datasets (contract §1.5). */
export const isAdminOrOwner = (role: Role | undefined) => role === 'admin' || role === 'owner';
