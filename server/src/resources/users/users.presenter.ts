import type { CurrentUser, User } from '@scholia/shared/contract';
import { presentTimestamp } from '../../lib/time.js';
import type { UserRow } from '../../storage/tables.js';

/**
 * Contract §1.4: the user object without its secrets (password hash, API key). Every route that
 * shows a user shows this, so no caller (an owner or admin included) reads another user's key.
 */
export function presentUser(user: UserRow): User {
  return {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    username: user.username,
    role: user.role,
    inserted_at: presentTimestamp(user.inserted_at),
    updated_at: presentTimestamp(user.updated_at),
  };
}

/** `GET /me`: the caller's own user, the one place its API key is shown. */
export function presentCurrentUser(user: UserRow): CurrentUser {
  return { ...presentUser(user), api_key: user.api_key };
}
