import type { Kysely } from 'kysely';
import { ConflictError, NotFoundError, UnprocessableError } from '../../errors.js';
import { nowTimestamp } from '../../lib/time.js';
import { HUGGINGFACE_PROVIDER } from '../../oauth/huggingface-provider.js';
import * as users from '../../storage/repositories/users.repository.js';
import type { Tables, UserRow } from '../../storage/tables.js';
import { isWriteConflict } from '../../storage/write-conflicts.js';
import { getUser } from '../users/users.service.js';
import { isLinked } from './identities.presenter.js';

type Db = Kysely<Tables>;

/** Providers an account can be linked to, whether or not sign-in with them is configured right now. */
const KNOWN_PROVIDERS: readonly string[] = [HUGGINGFACE_PROVIDER];

/** Every account linked to a sign-in provider. */
export async function listIdentities(db: Db) {
  return (await users.listLinkedUsers(db)).filter(isLinked);
}

/**
 * Links the user to the provider's subject, replacing the user's earlier link. A subject opens
 * one account only: linked to another user, it is a 409 until unlinked there.
 */
export async function linkIdentity(db: Db, userId: string, provider: string, subject: string) {
  requireKnownProvider(provider);
  const linking = db.transaction().execute(async (trx) => {
    const user = await getUser(trx, userId);
    const holder = await users.findUserByIdentity(trx, provider, subject);
    if (holder && holder.id !== user.id) {
      throw new ConflictError(`The ${provider} subject '${subject}' is already linked to user '${holder.username}'`);
    }
    const now = nowTimestamp();
    await users.setUserIdentity(trx, user.id, { provider, subject }, now);
    return { ...user, identity_provider: provider, identity_subject: subject, updated_at: now };
  });
  // Another request linked the subject between the check and the write: the unique index refused it.
  return linking.catch((error: unknown) => {
    if (isWriteConflict(error)) throw new ConflictError(`The ${provider} subject '${subject}' is already linked to another user`, { cause: error });
    throw error;
  });
}

/** Removes the user's link; the provider's next sign-in as that subject makes a new account. */
export async function unlinkIdentity(db: Db, userId: string, provider: string) {
  requireKnownProvider(provider);
  return db.transaction().execute(async (trx) => {
    const user: UserRow = await getUser(trx, userId);
    if (!isLinked(user) || user.identity_provider !== provider) {
      throw new NotFoundError(`User with id \`${userId}\` is not linked to ${provider}`);
    }
    await users.setUserIdentity(trx, user.id, null, nowTimestamp());
    return user;
  });
}

function requireKnownProvider(provider: string): void {
  if (!KNOWN_PROVIDERS.includes(provider)) throw new UnprocessableError(`Unknown sign-in provider '${provider}'`);
}
