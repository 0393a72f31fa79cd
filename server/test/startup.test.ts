import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/storage/open-database.js';
import { freePort, runChildServerToExit, startChildServer, tempDataDir } from './reliability/child-server.js';

/**
 * The real server process refuses to start, with one readable line and exit status 1, when it
 * could not work: storage it cannot write, a bad setting, a port in use, an unreachable PostgreSQL.
 *
 * Root writes through any file mode, so as root the read-only cases run the server as `nobody`;
 * without that account they are skipped, saying why.
 */
const isRoot = process.getuid?.() === 0;
const nobody = isRoot ? findAccount('nobody') : undefined;
const readOnlySkipReason = isRoot && !nobody ? 'running as root and there is no `nobody` account to run the server as: file modes do not stop root' : undefined;
if (readOnlySkipReason) console.warn(`read-only storage start-up tests skipped: ${readOnlySkipReason}`);

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) {
    fs.chmodSync(folder, 0o755);
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

function findAccount(name: string): { uid: number; gid: number } | undefined {
  const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((entry) => entry.startsWith(`${name}:`));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** A fresh data folder, removed after the tests. */
function dataFolder(): string {
  const folder = tempDataDir('scholia-start-');
  folders.push(folder);
  return folder;
}

/** Every line the process wrote, each a pino JSON line (anything else fails the test). */
function logLines(output: string): Array<{ level: number; msg: string; [key: string]: unknown }> {
  return output.trim().split('\n').filter(Boolean).map((line) => {
    try {
      return JSON.parse(line);
    } catch {
      throw new Error(`not a JSON log line: ${line}`);
    }
  });
}

function expectRefusal(result: { code: number | null; output: string }, message: RegExp) {
  expect(result.code, result.output).toBe(1);
  // The last line says why, at level fatal; a first start may have logged the owner account before it.
  const last = logLines(result.output).at(-1)!;
  expect(last.level).toBe(60);
  expect(last.msg).toMatch(/^Scholia could not start: /);
  expect(last.msg).toMatch(message);
  expect(result.output).not.toMatch(/^\s+at /m);
  expect(last.err).toBeUndefined();
  expect(result.output.match(/could not start/g)).toHaveLength(1);
}

describe('the first start of an empty database', () => {
  it('logs the generated owner as a JSON line naming the file that holds its password, never the password or key', async () => {
    const folder = dataFolder();
    const server = await startChildServer({ dataDir: folder, env: { SCHOLIA_OWNER_PASSWORD: '', SCHOLIA_OWNER_API_KEY: '' } });
    try {
      const file = path.join(folder, 'initial-owner-password');
      const owner = logLines(server.output()).find((line) => line.owner !== undefined);
      expect(owner).toMatchObject({ level: 40, owner: { username: 'owner', file } });
      expect(owner!.msg).toContain(file);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const password = fs.readFileSync(file, 'utf8').trim();
      const token = await fetch(`${server.url}/api/v1/token`, { method: 'POST', body: new URLSearchParams({ username: 'owner', password }) });
      expect(token.status).toBe(201);
      const { access_token: accessToken } = (await token.json()) as { access_token: string };
      const me = (await (await fetch(`${server.url}/api/v1/me`, { headers: { Authorization: `Bearer ${accessToken}` } })).json()) as { api_key: string };
      expect(server.output()).not.toContain(password);
      expect(server.output()).not.toContain(me.api_key);
    } finally {
      await server.stop();
    }
  });

  it('a configured password is named as such, and no password file is written', async () => {
    const folder = dataFolder();
    const server = await startChildServer({ dataDir: folder });
    try {
      const owner = logLines(server.output()).find((line) => line.owner !== undefined);
      expect(owner).toMatchObject({ level: 30, owner: { username: 'owner' }, msg: expect.stringContaining('SCHOLIA_OWNER_PASSWORD') });
      expect(fs.existsSync(path.join(folder, 'initial-owner-password'))).toBe(false);
    } finally {
      await server.stop();
    }
  });
});

describe('start-up refusals', () => {
  it.skipIf(readOnlySkipReason)('a data folder the server cannot write', async () => {
    const folder = dataFolder();
    fs.chmodSync(folder, 0o555);
    const result = await runChildServerToExit({ dataDir: folder, user: nobody, env: { HOME: os.tmpdir() } });
    expectRefusal(result, /data folder \(SCHOLIA_DATA_DIR\) .* is not writable/);
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it.skipIf(readOnlySkipReason)('a database file the server cannot write, in a folder it can', async () => {
    const folder = dataFolder();
    const file = path.join(folder, 'scholia.db');
    const database = await openDatabase(`sqlite:${file}`);
    await database.close();
    if (nobody) for (const entry of [folder, ...fs.readdirSync(folder).map((name) => path.join(folder, name))]) fs.chownSync(entry, nobody.uid, nobody.gid);
    fs.chmodSync(file, 0o444);
    const result = await runChildServerToExit({ dataDir: folder, user: nobody, env: { HOME: os.tmpdir() } });
    expectRefusal(result, new RegExp(`The database file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is read-only`));
  });

  it('a setting with a bad value names the variable', async () => {
    expectRefusal(await runChildServerToExit({ env: { SCHOLIA_PORT: 'eighty' } }), /SCHOLIA_PORT must be a port number from 0 to 65535, not "eighty"/);
  });

  it('a database URL that is neither SQLite nor PostgreSQL, without creating a file named after it', async () => {
    const serverDir = path.resolve(import.meta.dirname, '..');
    const before = fs.readdirSync(serverDir);
    expectRefusal(await runChildServerToExit({ env: { SCHOLIA_DATABASE_URL: 'garbage' } }), /SCHOLIA_DATABASE_URL must be sqlite:<file> or postgres:\/\/.*, not "garbage" \(e\.g\. /);
    const result = await runChildServerToExit({ env: { SCHOLIA_DATABASE_URL: 'mysql://app:db-secret-word@127.0.0.1/scholia' } });
    expectRefusal(result, /SCHOLIA_DATABASE_URL must be .*, not "mysql:\/\/app:\*\*\*@127\.0\.0\.1\/scholia"/);
    expect(result.output).not.toContain('db-secret-word');
    expect(fs.readdirSync(serverDir)).toEqual(before);
  });

  it.each([
    ['SCHOLIA_JWT_LIFETIME_SECONDS', '1d', /SCHOLIA_JWT_LIFETIME_SECONDS must be a whole number from 60 to 31536000, not "1d" \(e\.g\. SCHOLIA_JWT_LIFETIME_SECONDS=86400\)/],
    ['SCHOLIA_LOG_LEVEL', 'verbose', /SCHOLIA_LOG_LEVEL must be one of .*, not "verbose"/],
    ['SCHOLIA_TRUSTED_PROXIES', '10.0.0.0/99', /SCHOLIA_TRUSTED_PROXIES must be comma-separated IP addresses or CIDR ranges, not "10\.0\.0\.0\/99"/],
    ['SCHOLIA_WEB_DIR', '/no/such/web/build', /SCHOLIA_WEB_DIR must be an existing folder, not "\/no\/such\/web\/build"/],
    ['SCHOLIA_OWNER_PASSWORD', 'short', /SCHOLIA_OWNER_PASSWORD must be 8 to 100 characters long, not 5/],
  ])('%s=%s stops the start before the port opens', async (name, value, message) => {
    const folder = dataFolder();
    expectRefusal(await runChildServerToExit({ dataDir: folder, env: { [name]: value } }), message);
    // Refused before the database was opened: no first owner, no file.
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it('a data folder that cannot be created, inside /proc, instead of hanging', async () => {
    const result = await runChildServerToExit({ dataDir: '/proc/scholia-data', timeoutMs: 20_000 });
    expectRefusal(result, /The data folder \(SCHOLIA_DATA_DIR\) \/proc\/scholia-data cannot be created \(ENOENT\)/);
  });

  it('a database a newer version migrated, naming the migration it does not know', async () => {
    const folder = dataFolder();
    const database = await openDatabase(`sqlite:${path.join(folder, 'scholia.db')}`);
    await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('209912310000_from_the_future', '2099-12-31T00:00:00.000Z')`.execute(database.db);
    await database.close();
    expectRefusal(
      await runChildServerToExit({ dataDir: folder }),
      /The database was migrated by a newer version of Scholia \(its migration 209912310000_from_the_future is unknown to this version\)/,
    );
  });

  it('a migration that fails names itself and the reason', async () => {
    const folder = dataFolder();
    const sqlite = new SQLite(path.join(folder, 'scholia.db'));
    // The first migration creates this table.
    sqlite.exec('CREATE TABLE users (id TEXT)');
    sqlite.close();
    expectRefusal(await runChildServerToExit({ dataDir: folder }), /database migration \d{12}_create_core_tables failed: .*users/);
  });

  it('a port already in use', async () => {
    const port = await freePort();
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      expectRefusal(await runChildServerToExit({ env: { SCHOLIA_PORT: String(port) } }), new RegExp(`Port ${port} is already in use on 127\\.0\\.0\\.1`));
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('a PostgreSQL server that does not answer, without showing the password', async () => {
    const port = await freePort();
    const result = await runChildServerToExit({ env: { SCHOLIA_DATABASE_URL: `postgres://scholia:pg-secret-word@127.0.0.1:${port}/scholia` } });
    expectRefusal(result, new RegExp(`Cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${port}/scholia \\(connection refused\\)`));
    expect(result.output).not.toContain('pg-secret-word');
  });

  const postgresUrl = process.env.SCHOLIA_TEST_DATABASE_URL?.startsWith('postgres') ? process.env.SCHOLIA_TEST_DATABASE_URL : undefined;
  it.skipIf(!postgresUrl)('a PostgreSQL database that does not exist', async () => {
    const url = new URL(postgresUrl!);
    url.pathname = '/scholia_no_such_database';
    const result = await runChildServerToExit({ env: { SCHOLIA_DATABASE_URL: url.toString() } });
    expectRefusal(result, /Cannot connect to PostgreSQL at .*\/scholia_no_such_database \(the database does not exist\)/);
  });
});
