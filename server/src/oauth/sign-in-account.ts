import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { hashPassword } from '../auth/passwords.js';
import { newApiKey, newId } from '../lib/ids.js';
import { nowTimestamp } from '../lib/time.js';
import {
  findTakenUsernames,
  findUserByIdentity,
  findUserByUsername,
  insertUser,
  setUserIdentity,
} from '../storage/repositories/users.repository.js';
import { findWorkspaceByName, findWorkspaceUser, insertWorkspace, insertWorkspaceUser } from '../storage/repositories/workspaces.repository.js';
import type { Tables, UserRow } from '../storage/tables.js';
import { isWriteConflict } from '../storage/write-conflicts.js';

type Db = Kysely<Tables>;

/** Who the provider says signed in. */
export interface ProviderIdentity {
  /** e.g. `huggingface` */
  provider: string;
  /** The provider's stable subject (`sub`): the only thing an account is found by. */
  subject: string;
  /** The provider's username: the new account's username when it is free. */
  preferredUsername: string;
  fullName?: string;
}

/** Options of {@link findOrCreateSignInAccount}. */
export interface SignInAccountOptions {
  /**
   * The configured owner username (on a Space, its owner). Its first sign-in links the provider
   * subject to the unlinked local account of that name, or creates that account as owner.
   */
  ownerUsername?: string;
  /** Workspaces a new account joins (created when missing). */
  workspaces: string[];
  /** Marks a name picked because the preferred one was taken: `name-<suffix>`, `name-<suffix>-2` … */
  takenNameSuffix: string;
}

/** The account a sign-in goes on with. */
export interface SignInAccount {
  user: UserRow;
  /** True when the account was created under another name because the preferred one was taken. */
  preferredUsernameTaken: boolean;
}

/** Names tried after the preferred one: `name-hf`, `name-hf-2` … before a random one. */
const NUMBERED_NAMES = 20;

/**
 * The account linked to the identity's subject, else a new one (annotator, owner for the
 * configured owner username). A username never finds an account, except the configured owner
 * username's first sign-in (documented in docs/security.md): anyone could choose a provider
 * username equal to a local account's, and would be handed that account and its role.
 */
export async function findOrCreateSignInAccount(db: Db, identity: ProviderIdentity, options: SignInAccountOptions): Promise<SignInAccount> {
  const linked = await findUserByIdentity(db, identity.provider, identity.subject);
  if (linked) return { user: linked, preferredUsernameTaken: false };
  // A password no one knows, hashed before the transaction so the hashing holds no database lock.
  const passwordHash = await hashPassword(randomBytes(24).toString('base64url'));
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute((trx) => resolveAccount(trx, identity, options, passwordHash));
    } catch (error) {
      // Two first sign-ins at once (same subject, or the same free name): the next try sees the other's row.
      if (attempt < 3 && isWriteConflict(error)) continue;
      throw error;
    }
  }
}

async function resolveAccount(db: Db, identity: ProviderIdentity, options: SignInAccountOptions, passwordHash: string): Promise<SignInAccount> {
  const linked = await findUserByIdentity(db, identity.provider, identity.subject);
  if (linked) return { user: linked, preferredUsernameTaken: false };
  const now = nowTimestamp();
  const link = { provider: identity.provider, subject: identity.subject };
  const ownerName = options.ownerUsername !== undefined && identity.preferredUsername === options.ownerUsername;
  if (ownerName) {
    const local = await findUserByUsername(db, identity.preferredUsername);
    if (local && local.identity_subject === null) {
      await setUserIdentity(db, local.id, link, now);
      return { user: { ...local, identity_provider: link.provider, identity_subject: link.subject, updated_at: now }, preferredUsernameTaken: false };
    }
  }
  const username = await freeUsername(db, identity.preferredUsername, options.takenNameSuffix);
  const preferredUsernameTaken = username !== identity.preferredUsername;
  const user = await insertUser(db, {
    id: newId(),
    first_name: identity.fullName?.trim() || username,
    last_name: null,
    username,
    role: ownerName && !preferredUsernameTaken ? 'owner' : 'annotator',
    password_hash: passwordHash,
    api_key: newApiKey(),
    identity_provider: link.provider,
    identity_subject: link.subject,
    inserted_at: now,
    updated_at: now,
  });
  for (const name of options.workspaces) {
    const workspace = (await findWorkspaceByName(db, name)) ?? (await insertWorkspace(db, { id: newId(), name, inserted_at: now, updated_at: now }));
    if (!(await findWorkspaceUser(db, workspace.id, user.id))) {
      await insertWorkspaceUser(db, { workspace_id: workspace.id, user_id: user.id, inserted_at: now });
    }
  }
  return { user, preferredUsernameTaken };
}

/** The preferred username when free, else the first free of `name-hf`, `name-hf-2` …, else one with a random tail. */
async function freeUsername(db: Db, preferred: string, suffix: string): Promise<string> {
  const candidates = [preferred, `${preferred}-${suffix}`];
  for (let n = 2; n <= NUMBERED_NAMES; n++) candidates.push(`${preferred}-${suffix}-${n}`);
  const taken = await findTakenUsernames(db, candidates);
  return candidates.find((name) => !taken.has(name)) ?? `${preferred}-${suffix}-${randomBytes(4).toString('hex')}`;
}
