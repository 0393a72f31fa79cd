import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyPassword } from '../auth/passwords.js';
import { openDatabase } from '../storage/open-database.js';
import type { Database } from '../storage/dialect.js';
import { ensureFirstOwner, INITIAL_PASSWORD_FILE } from './first-owner.js';

const opened: Database[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

async function emptyInstall() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-owner-'));
  folders.push(dataDir);
  const database = await openDatabase(`sqlite:${path.join(dataDir, 'scholia.db')}`);
  opened.push(database);
  return { dataDir, database };
}

const storedHash = async (database: Database) =>
  (await database.db.selectFrom('users').select('password_hash').where('username', '=', 'owner').executeTakeFirstOrThrow()).password_hash;

describe('the first owner', () => {
  it('a generated password is kept in a file only this account reads, and it signs the owner in', async () => {
    const { dataDir, database } = await emptyInstall();
    // A file an earlier database left, readable by anyone: replaced, not reused.
    fs.writeFileSync(path.join(dataDir, INITIAL_PASSWORD_FILE), 'old-password\n', { mode: 0o644 });
    const owner = await ensureFirstOwner(database.db, {}, dataDir);
    const file = path.join(dataDir, INITIAL_PASSWORD_FILE);
    expect(owner).toEqual({ username: 'owner', passwordFile: file });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const password = fs.readFileSync(file, 'utf8').trim();
    expect(password).not.toBe('old-password');
    expect(await verifyPassword(await storedHash(database), password)).toBe(true);
  });

  it('processes starting together on one empty database and data folder leave the winner’s password, and no other file', async () => {
    const { dataDir, database } = await emptyInstall();
    const owners = await Promise.all([1, 2, 3].map(() => ensureFirstOwner(database.db, {}, dataDir)));
    expect(owners.filter(Boolean)).toHaveLength(1);
    expect(fs.readdirSync(dataDir).filter((name) => name.includes(INITIAL_PASSWORD_FILE))).toEqual([INITIAL_PASSWORD_FILE]);
    const password = fs.readFileSync(path.join(dataDir, INITIAL_PASSWORD_FILE), 'utf8').trim();
    expect(await verifyPassword(await storedHash(database), password)).toBe(true);
  });

  it('a configured password writes no file', async () => {
    const { dataDir, database } = await emptyInstall();
    expect(await ensureFirstOwner(database.db, { password: 'configured-password' }, dataDir)).toEqual({ username: 'owner' });
    expect(fs.existsSync(path.join(dataDir, INITIAL_PASSWORD_FILE))).toBe(false);
  });
});
