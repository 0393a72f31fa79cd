import type { User } from '@scholia/shared/contract';
import { presentTimestamp } from '../../lib/time.js';
import type { UserRow } from '../../storage/tables.js';

/** Contract §1.4: every key of the user object, and only those (never the password hash). */
export function presentUser(user: UserRow): User {
  return {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    username: user.username,
    role: user.role,
    api_key: user.api_key,
    inserted_at: presentTimestamp(user.inserted_at),
    updated_at: presentTimestamp(user.updated_at),
  };
}
