import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
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
  /** Where the generated password was written; absent when it was configured. */
  passwordFile?: string;
}

/** The file in the data folder that holds a generated first owner's password. */
export const INITIAL_PASSWORD_FILE = 'initial-owner-password';

/**
 * On an empty database, creates the first owner from the configured credentials, generating a
 * random password (never a fixed default) when none is configured. A generated password goes to
 * `<dataDir>/initial-owner-password`, readable by this account only, and never to the log (which
 * is often shipped elsewhere). Returns undefined when users exist (also when another process
 * starting at the same moment created the owner).
 */
export async function ensureFirstOwner(db: Kysely<Tables>, options: FirstOwnerOptions, dataDir: string): Promise<CreatedOwner | undefined> {
  if ((await countUsers(db)) > 0) return undefined;
  const username = options.username ?? 'owner';
  const password = options.password ?? randomBytes(12).toString('base64url');
  // Written before the account exists, under a name of this process's own: a folder that cannot
  // hold it stops the start instead of leaving an owner whose password no one knows.
  const draft = options.password ? undefined : writeDraft(dataDir, password);
  const now = nowTimestamp();
  let inserted = false;
  try {
    inserted = await insertUser(db, {
      id: newId(),
      first_name: username,
      last_name: null,
      username,
      role: 'owner',
      password_hash: await hashPassword(password),
      api_key: options.apiKey ?? newApiKey(),
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
  } finally {
    // A password that belongs to no account: the process that won wrote its own.
    if (draft && !inserted) fs.rmSync(draft, { force: true });
  }
  if (!inserted) return undefined;
  if (!draft) return { username };
  // Renamed only once the account exists, replacing a file an earlier database left.
  const passwordFile = path.join(dataDir, INITIAL_PASSWORD_FILE);
  fs.renameSync(draft, passwordFile);
  return { username, passwordFile };
}

/** The password in a new file of mode 0600 next to where it will be kept. */
function writeDraft(dataDir: string, password: string): string {
  const file = path.join(dataDir, `.${INITIAL_PASSWORD_FILE}.${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    throw new Error(`Cannot write the first owner's generated password to ${dataDir} (SCHOLIA_DATA_DIR; or set SCHOLIA_OWNER_PASSWORD)`, { cause: error });
  }
  return file;
}
