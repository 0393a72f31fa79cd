import type { Kysely } from 'kysely';
import type { UserCreateBody, UserUpdateBody } from '@scholia/shared/contract';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { ConflictError, NotFoundError, RequestValidationError, UnprocessableError } from '../../errors.js';
import { newApiKey, newId } from '../../lib/ids.js';
import { nowTimestamp } from '../../lib/time.js';
import * as users from '../../storage/repositories/users.repository.js';
import type { Tables, UserRow } from '../../storage/tables.js';

type Db = Kysely<Tables>;

/** The user with this id, or 404 `` User with id `x` not found ``. */
export async function getUser(db: Db, id: string): Promise<UserRow> {
  const user = await users.findUserById(db, id);
  if (!user) throw new NotFoundError(`User with id \`${id}\` not found`);
  return user;
}

/** Every user, oldest first: the SDK takes the first item (the bootstrap owner) as a response author. */
export const listUsers = (db: Db): Promise<UserRow[]> => users.listUsers(db);

/**
 * Creates a user with a fresh API key (contract §6.5). Uniqueness is checked for the username
 * first, then for a client-chosen id, as the reference does.
 */
export async function createUser(db: Db, input: UserCreateBody): Promise<UserRow> {
  const firstName = trimmedFirstName(input.first_name);
  const passwordHash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    if (await users.findUserByUsername(trx, input.username)) {
      throw new ConflictError(`User username \`${input.username}\` is not unique`);
    }
    if (input.id && (await users.findUserById(trx, input.id))) {
      throw new ConflictError(`User with id \`${input.id}\` is not unique`);
    }
    const now = nowTimestamp();
    return users.insertUser(trx, {
      id: input.id ?? newId(),
      first_name: firstName,
      last_name: input.last_name ?? null,
      username: input.username,
      role: input.role ?? 'annotator',
      password_hash: passwordHash,
      api_key: newApiKey(),
      inserted_at: now,
      updated_at: now,
    });
  });
}

/**
 * Applies the keys present in the body. Renaming onto another user's username is a 422
 * (contract §2.2, asserted by the SDK's integration tests), not a 409. A new password (not the
 * one already set: the SDK may send it again) also replaces the user's API key and ends its
 * tokens, so whoever held the old credentials is out.
 */
export async function updateUser(db: Db, user: UserRow, input: UserUpdateBody): Promise<UserRow> {
  const changes: Partial<UserRow> = {};
  if (input.first_name !== undefined) changes.first_name = trimmedFirstName(input.first_name);
  if (input.last_name !== undefined) changes.last_name = input.last_name;
  if (input.username !== undefined) changes.username = input.username;
  if (input.role !== undefined) changes.role = input.role;
  const newPassword = input.password !== undefined && !(await verifyPassword(user.password_hash, input.password));
  if (newPassword) changes.password_hash = await hashPassword(input.password!);
  return db.transaction().execute(async (trx) => {
    if (changes.username !== undefined && changes.username !== user.username) {
      const other = await users.findUserByUsername(trx, changes.username);
      if (other && other.id !== user.id) throw new UnprocessableError(`Username '${changes.username}' already exists`);
    }
    if (changes.role !== undefined && changes.role !== 'owner') await refuseRemovingLastOwner(trx, user, 'demoted');
    changes.updated_at = nowTimestamp();
    if (newPassword) await users.replaceCredentials(trx, user.id, { ...changes, api_key: newApiKey() });
    else await users.updateUser(trx, user.id, changes);
    return getUser(trx, user.id);
  });
}

/** A new API key for the user; its old key and every token issued before stop working. */
export async function rotateApiKey(db: Db, user: UserRow): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    await users.replaceCredentials(trx, user.id, { api_key: newApiKey(), updated_at: nowTimestamp() });
    return getUser(trx, user.id);
  });
}

/** Deletes the user; memberships and responses go with it (ON DELETE CASCADE). Returns the deleted row. */
export async function deleteUser(db: Db, user: UserRow): Promise<UserRow> {
  await db.transaction().execute(async (trx) => {
    await refuseRemovingLastOwner(trx, user, 'deleted');
    await users.deleteUser(trx, user.id);
  });
  return user;
}

/** An install keeps at least one owner: only an owner can manage users, so none would be a dead end. */
async function refuseRemovingLastOwner(db: Db, user: UserRow, action: 'demoted' | 'deleted'): Promise<void> {
  if (user.role === 'owner' && (await users.countOwners(db)) <= 1) {
    throw new ConflictError(`The last owner cannot be ${action}: make another user an owner first`);
  }
}

/** Contract §2.2: `first_name` is trimmed, then must keep at least one character. */
function trimmedFirstName(value: string): string {
  const trimmed = value.trim();
  if (!trimmed) {
    throw new RequestValidationError([
      { type: 'string_too_short', loc: ['body', 'first_name'], msg: 'String should have at least 1 character' },
    ]);
  }
  return trimmed;
}
