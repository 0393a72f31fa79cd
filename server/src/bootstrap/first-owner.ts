import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { hashPassword } from '../auth/passwords.js';
import { newApiKey, newId } from '../lib/ids.js';
import { nowTimestamp } from '../lib/time.js';
import { countUsers, insertUser } from '../storage/repositories/users.repository.js';
import type { Tables } from '../storage/tables.js';

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
 * random password (never a fixed default) when none is configured. Returns undefined when users exist.
 */
export async function ensureFirstOwner(db: Kysely<Tables>, options: FirstOwnerOptions): Promise<CreatedOwner | undefined> {
  if ((await countUsers(db)) > 0) return undefined;
  const username = options.username ?? 'owner';
  const generatedPassword = options.password ? undefined : randomBytes(12).toString('base64url');
  const password = options.password ?? generatedPassword!;
  const apiKey = options.apiKey ?? newApiKey();
  const now = nowTimestamp();
  await insertUser(db, {
    id: newId(),
    first_name: username,
    last_name: null,
    username,
    role: 'owner',
    password_hash: await hashPassword(password),
    api_key: apiKey,
    inserted_at: now,
    updated_at: now,
  });
  return { username, generatedPassword, apiKey };
}
