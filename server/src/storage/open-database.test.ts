import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createScratchDatabase } from '../../test/test-server.js';
import { openDatabase, sqliteHandle } from './open-database.js';

async function cacheSizeWith(sqliteCacheMiB: number | undefined): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-open-'));
  const database = await openDatabase(`sqlite:${path.join(dir, 'cache.db')}`, { sqliteCacheMiB });
  try {
    return sqliteHandle(database.db).pragma('cache_size', { simple: true }) as number;
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('SQLite page cache size', () => {
  it('is 16 MiB by default, else the size given (SCHOLIA_SQLITE_CACHE_MIB)', async () => {
    expect(await cacheSizeWith(undefined)).toBe(-16 * 1024);
    expect(await cacheSizeWith(48)).toBe(-48 * 1024);
  });
});

const postgresAdminUrl = process.env.SCHOLIA_TEST_DATABASE_URL;

describe.runIf(postgresAdminUrl?.startsWith('postgres'))('PostgreSQL connection pool', () => {
  async function connectionsAfterOpening(warmPool: boolean): Promise<number> {
    const scratch = await createScratchDatabase(postgresAdminUrl!);
    const database = await openDatabase(scratch.url, { pgvector: false, warmPool, poolSize: 3 });
    try {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()`.execute(database.db);
      return rows[0].n;
    } finally {
      await database.close();
      await scratch.drop();
    }
  }

  it('a warm pool (the server) opens every connection at once; otherwise they open on demand', async () => {
    expect(await connectionsAfterOpening(true)).toBe(3);
    expect(await connectionsAfterOpening(false)).toBe(1);
  });
});

describe.runIf(postgresAdminUrl?.startsWith('postgres'))('pgvector wanted but unavailable', () => {
  it('opens the database with exact similarity search and says why pgvector is off', async () => {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: postgresAdminUrl });
    await admin.connect();
    const role = `scholia_novector_${randomBytes(4).toString('hex')}`;
    const scratch = await createScratchDatabase(postgresAdminUrl!);
    try {
      await admin.query(`CREATE ROLE ${role} LOGIN NOSUPERUSER`);
      await admin.query(`ALTER DATABASE ${new URL(scratch.url).pathname.slice(1)} OWNER TO ${role}`);
      const asApp = new URL(scratch.url);
      asApp.username = role;
      asApp.password = '';
      // A database owner that is no superuser may not create the (untrusted) extension.
      const database = await openDatabase(asApp.toString(), { pgvector: true });
      try {
        expect(database.pgvectorUnavailable).toMatch(/^the "vector" extension could not be created \(.+\): a superuser must run CREATE EXTENSION vector/);
      } finally {
        await database.close();
      }
      const off = await openDatabase(scratch.url, { pgvector: false });
      expect(off.pgvectorUnavailable).toBeUndefined();
      await off.close();
    } finally {
      await scratch.drop();
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    }
  });
});
