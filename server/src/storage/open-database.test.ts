import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createScratchDatabase } from '../../test/test-server.js';
import { openDatabase, sqliteHandle } from './open-database.js';

const saved = process.env.SCHOLIA_SQLITE_CACHE_MIB;
afterEach(() => {
  if (saved === undefined) delete process.env.SCHOLIA_SQLITE_CACHE_MIB;
  else process.env.SCHOLIA_SQLITE_CACHE_MIB = saved;
});

async function cacheSizeWith(value: string | undefined): Promise<number> {
  if (value === undefined) delete process.env.SCHOLIA_SQLITE_CACHE_MIB;
  else process.env.SCHOLIA_SQLITE_CACHE_MIB = value;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-open-'));
  const database = await openDatabase(`sqlite:${path.join(dir, 'cache.db')}`);
  try {
    return sqliteHandle(database.db).pragma('cache_size', { simple: true }) as number;
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('SQLite page cache size', () => {
  it('is 16 MiB by default, SCHOLIA_SQLITE_CACHE_MIB when valid', async () => {
    expect(await cacheSizeWith(undefined)).toBe(-16 * 1024);
    expect(await cacheSizeWith('48')).toBe(-48 * 1024);
    expect(await cacheSizeWith('lots')).toBe(-16 * 1024);
    expect(await cacheSizeWith('0')).toBe(-16 * 1024);
  });
});

const postgresAdminUrl = process.env.SCHOLIA_TEST_DATABASE_URL;

describe.runIf(postgresAdminUrl?.startsWith('postgres'))('PostgreSQL connection pool', () => {
  const savedSize = process.env.SCHOLIA_DATABASE_POOL_SIZE;
  afterEach(() => {
    if (savedSize === undefined) delete process.env.SCHOLIA_DATABASE_POOL_SIZE;
    else process.env.SCHOLIA_DATABASE_POOL_SIZE = savedSize;
  });

  async function connectionsAfterOpening(warmPool: boolean): Promise<number> {
    process.env.SCHOLIA_DATABASE_POOL_SIZE = '3';
    const scratch = await createScratchDatabase(postgresAdminUrl!);
    const database = await openDatabase(scratch.url, { pgvector: false, warmPool });
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
