import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
