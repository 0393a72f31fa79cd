import type { UserIdentity } from '@scholia/shared/contract';
import type { UserRow } from '../../storage/tables.js';

/** A linked account's identity (Scholia extension); callers pass linked users only. */
export function presentIdentity(user: UserRow & { identity_provider: string; identity_subject: string }): UserIdentity {
  return { user_id: user.id, provider: user.identity_provider, subject: user.identity_subject };
}

/** True when the user is linked to a sign-in provider. */
export function isLinked(user: UserRow): user is UserRow & { identity_provider: string; identity_subject: string } {
  return user.identity_provider !== null && user.identity_subject !== null;
}
