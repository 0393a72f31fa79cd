import SQLite from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { storageFailure } from './storage-failures.js';

/** The drivers' own error classes, with the codes they carry when the server's resources run out. */
function postgresError(code: string): Error {
  const error = new pg.DatabaseError('could not extend file "base/16384/16390": No space left on device', 100, 'error');
  error.code = code;
  return error;
}

describe('storage failures', () => {
  it('a full disk is a 507 on SQLite, PostgreSQL and the file system', () => {
    const disk = { status: 507, detail: "The server's disk is full; the change was not saved." };
    expect(storageFailure(new SQLite.SqliteError('database or disk is full', 'SQLITE_FULL'))).toEqual(disk);
    expect(storageFailure(postgresError('53100'))).toEqual(disk);
    expect(storageFailure(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))).toEqual(disk);
  });

  it('PostgreSQL out of memory or other resources is a 503', () => {
    for (const code of ['53200', '53300', '53400']) expect(storageFailure(postgresError(code))?.status, code).toBe(503);
  });

  it('is found behind a wrapping error, and other failures are not storage failures', () => {
    const wrapped = new Error('database migration failed', { cause: new SQLite.SqliteError('database or disk is full', 'SQLITE_FULL') });
    expect(storageFailure(wrapped)?.status).toBe(507);
    expect(storageFailure(new SQLite.SqliteError('constraint failed', 'SQLITE_CONSTRAINT'))).toBeUndefined();
    expect(storageFailure(postgresError('23505'))).toBeUndefined();
    expect(storageFailure(new Error('boom'))).toBeUndefined();
    expect(storageFailure(undefined)).toBeUndefined();
  });
});
