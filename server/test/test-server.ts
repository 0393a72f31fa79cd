import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { ensureFirstOwner } from '../src/bootstrap/first-owner.js';
import { databaseOptions, readConfig } from '../src/config.js';
import { openDatabase, type OpenDatabaseOptions } from '../src/storage/open-database.js';

export const OWNER = { username: 'owner', password: 'owner-password-1', apiKey: 'owner.apikey' };

export interface TestServer {
  app: FastifyInstance;
  /** Base URL such as http://127.0.0.1:41234 */
  url: string;
  dataDir: string;
  /** The database the server runs on (a restart test reopens it). */
  databaseUrl: string;
  close(): Promise<void>;
}

/**
 * Boots the real server on a free loopback port with a fresh SQLite file (or, when
 * SCHOLIA_TEST_DATABASE_URL names a PostgreSQL server, a fresh database created there) and the
 * first owner of OWNER.
 */
export async function startTestServer(
  options: { env?: Record<string, string>; dataDir?: string; textIndexer?: boolean; searchReader?: OpenDatabaseOptions['searchReader'] } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-test-'));
  // PostgreSQL: a fresh database per server (dropped on close), unless the caller names one.
  // A caller-provided data folder (restart tests) maps to one database kept across servers.
  const adminUrl = process.env.SCHOLIA_TEST_DATABASE_URL;
  const scratch =
    !options.env?.SCHOLIA_DATABASE_URL && adminUrl?.startsWith('postgres')
      ? await createScratchDatabase(adminUrl, options.dataDir && `scholia_test_${createHash('sha256').update(options.dataDir).digest('hex').slice(0, 12)}`)
      : undefined;
  const config = readConfig({
    SCHOLIA_DATA_DIR: dataDir,
    SCHOLIA_DATABASE_URL: scratch?.url ?? process.env.SCHOLIA_TEST_DATABASE_URL ?? `sqlite:${path.join(dataDir, 'test.db')}`,
    SCHOLIA_LOG_LEVEL: 'warn',
    // Where it listens (below): a loopback-only server, as a local install is.
    SCHOLIA_HOST: '127.0.0.1',
    // Fixtures sign every user they create in (to read its key from /me); tests of the limit set their own.
    SCHOLIA_LOGIN_RATE_LIMIT: '1000',
    ...options.env,
  });
  const database = await openDatabase(config.databaseUrl, { ...databaseOptions(config), textIndexer: options.textIndexer, searchReader: options.searchReader });
  await ensureFirstOwner(database.db, OWNER, dataDir);
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    databaseUrl: config.databaseUrl,
    async close() {
      await app.close();
      if (!options.dataDir) await scratch?.drop();
      // A caller-provided data folder outlives the server (restart tests boot it again).
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates `scholia_test_<random>` (or `reuseName`, unless it exists) next to the database of `adminUrl` (any database on that
 * server the user may connect to; the user needs CREATEDB) and returns its URL.
 */
export async function createScratchDatabase(adminUrl: string, reuseName?: string): Promise<ScratchDatabase> {
  const { default: pg } = await import('pg');
  const name = reuseName || `scholia_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const existing = reuseName ? await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]) : { rowCount: 0 };
    if (!existing.rowCount) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
