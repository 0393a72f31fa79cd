import type { Kysely } from 'kysely';
import type { PasswordChangeBody } from '@scholia/shared/contract';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import type { SignInBackoff } from '../../auth/sign-in-backoff.js';
import { ForbiddenError, TooManyRequestsError } from '../../errors.js';
import { nowTimestamp } from '../../lib/time.js';
import * as users from '../../storage/repositories/users.repository.js';
import type { Tables, UserRow } from '../../storage/tables.js';
import { getUser } from '../users/users.service.js';

/**
 * The signed-in user's new password, proven by the current one. A wrong current password counts
 * in the per-username sign-in backoff like a failed sign-in, so a stolen token or API key is no
 * faster a way to guess the password than `POST /token`. Every token issued before ends (other
 * sessions sign in again); the API key stays, since it has its own replacement.
 */
export async function changeOwnPassword(
  db: Kysely<Tables>,
  user: UserRow,
  input: PasswordChangeBody,
  backoff: SignInBackoff | undefined,
): Promise<UserRow> {
  const waitSeconds = (await backoff?.attempt(user.username)) ?? 0;
  if (waitSeconds > 0) {
    throw new TooManyRequestsError(`Too many wrong passwords for this username, retry in ${waitSeconds} s`, waitSeconds);
  }
  if (!(await verifyPassword(user.password_hash, input.current_password))) throw new ForbiddenError(wrongPasswordDetail(user));
  await backoff?.succeeded(user.username);
  // Hashed before the transaction, so the hashing holds no database lock.
  const passwordHash = await hashPassword(input.new_password);
  return db.transaction().execute(async (trx) => {
    await users.replaceCredentials(trx, user.id, { password_hash: passwordHash, updated_at: nowTimestamp() });
    return getUser(trx, user.id);
  });
}

/**
 * An account created by a provider sign-in got a password no one knows: the answer says so, since
 * its user cannot give the current one (an owner can set a password with `PATCH /users/{id}`).
 */
function wrongPasswordDetail(user: UserRow): string {
  const wrong = 'The current password is wrong';
  if (!user.identity_provider) return wrong;
  return `${wrong}. An account created by signing in with ${user.identity_provider} has no password of its own until an owner sets one`;
}
