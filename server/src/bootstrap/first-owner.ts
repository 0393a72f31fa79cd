import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { hashPassword } from '../auth/passwords.js';
import { newApiKey, newId } from '../lib/ids.js';
import { nowTimestamp } from '../lib/time.js';
import { countUsers, insertUser } from '../storage/repositories/users.repository.js';
import type { Tables } from '../storage/tables.js';
import { isWriteConflict } from '../storage/write-conflicts.js';

export interface FirstOwnerOptions {
  username?: string;
  password?: string;
  apiKey?: string;
}

export interface CreatedOwner {
  username: string;
  /** Present only when it was generated here, so it can be shown once. */
  generatedPassword?: string;
  apiKey: string;
}

/**
 * On an empty database, creates the first owner from the configured credentials, generating a
 * random password (never a fixed default) when none is configured. Returns undefined when users exist
 * (also when another process starting at the same moment created the owner).
 */
export async function ensureFirstOwner(db: Kysely<Tables>, options: FirstOwnerOptions): Promise<CreatedOwner | undefined> {
  if ((await countUsers(db)) > 0) return undefined;
  const username = options.username ?? 'owner';
  const generatedPassword = options.password ? undefined : randomBytes(12).toString('base64url');
  const password = options.password ?? generatedPassword!;
  const apiKey = options.apiKey ?? newApiKey();
  const now = nowTimestamp();
  const inserted = await insertUser(db, {
    id: newId(),
    first_name: username,
    last_name: null,
    username,
    role: 'owner',
    password_hash: await hashPassword(password),
    api_key: apiKey,
    inserted_at: now,
    updated_at: now,
  }).then(
    () => true,
    // Another server process starting on the same empty database created the owner first.
    (error: unknown) => {
      if (isWriteConflict(error)) return false;
      throw error;
    },
  );
  return inserted ? { username, generatedPassword, apiKey } : undefined;
}
