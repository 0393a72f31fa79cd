import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { UnauthorizedError } from '../../errors.js';
import { findUserByUsername } from '../../storage/repositories/users.repository.js';
import type { Tables, UserRow } from '../../storage/tables.js';

let dummyHash: Promise<string> | undefined;

/**
 * The user these credentials belong to, or 401 (contract §1.2). An unknown username still costs
 * one password verification, so response times do not reveal which usernames exist.
 */
export async function authenticateUser(db: Kysely<Tables>, username: string, password: string): Promise<UserRow> {
  const user = await findUserByUsername(db, username);
  if (!user) {
    dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
    await verifyPassword(await dummyHash, password);
    throw new UnauthorizedError();
  }
  if (!(await verifyPassword(user.password_hash, password))) throw new UnauthorizedError();
  return user;
}
