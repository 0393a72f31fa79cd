import type { Kysely } from 'kysely';
import type { UserCreateBody, UserUpdateBody } from '@scholia/shared/contract';
import { hashPassword } from '../../auth/passwords.js';
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
 * (contract §2.2, asserted by the SDK's integration tests), not a 409.
 */
export async function updateUser(db: Db, user: UserRow, input: UserUpdateBody): Promise<UserRow> {
  const changes: Partial<UserRow> = {};
  if (input.first_name !== undefined) changes.first_name = trimmedFirstName(input.first_name);
  if (input.last_name !== undefined) changes.last_name = input.last_name;
  if (input.username !== undefined) changes.username = input.username;
  if (input.role !== undefined) changes.role = input.role;
  if (input.password !== undefined) changes.password_hash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    if (changes.username !== undefined && changes.username !== user.username) {
      const other = await users.findUserByUsername(trx, changes.username);
      if (other && other.id !== user.id) throw new UnprocessableError(`Username '${changes.username}' already exists`);
    }
    changes.updated_at = nowTimestamp();
    await users.updateUser(trx, user.id, changes);
    return { ...user, ...changes };
  });
}

/** Deletes the user; memberships and responses go with it (ON DELETE CASCADE). Returns the deleted row. */
export async function deleteUser(db: Db, user: UserRow): Promise<UserRow> {
  await users.deleteUser(db, user.id);
  return user;
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
