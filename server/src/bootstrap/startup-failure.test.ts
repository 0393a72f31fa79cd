import SQLite from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config-values.js';
import { describeStartupFailure } from './startup-failure.js';

const settings = { host: '0.0.0.0', port: 80, databaseUrl: 'postgres://app:hunter2@db.internal:6543/scholia' };
const withCode = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe('start-up failure messages', () => {
  it('names the setting, the port or the database, never the password', () => {
    expect(describeStartupFailure(new ConfigError('SCHOLIA_PORT must be a port number'), settings)).toBe('SCHOLIA_PORT must be a port number');
    const unknownHost = withCode('getaddrinfo ENOTFOUND scholia.internal', { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: 'scholia.internal' });
    expect(describeStartupFailure(unknownHost, { ...settings, host: 'scholia.internal' })).toBe(
      'Cannot listen on scholia.internal:80: the host name scholia.internal was not found (SCHOLIA_HOST, e.g. SCHOLIA_HOST=127.0.0.1)',
    );
    expect(describeStartupFailure(withCode('listen EACCES', { code: 'EACCES', syscall: 'listen' }), settings)).toMatch(/^Not allowed to listen on 0\.0\.0\.0:80 .*SCHOLIA_PORT/);
    const refused = new AggregateError([withCode('connect ECONNREFUSED ::1:6543', { code: 'ECONNREFUSED' })], '');
    expect(describeStartupFailure(refused, settings)).toBe(
      'Cannot connect to PostgreSQL at db.internal:6543/scholia (connection refused): check SCHOLIA_DATABASE_URL and that the database server is running',
    );
    const badPassword = new pg.DatabaseError('password authentication failed for user "app"', 100, 'error');
    badPassword.code = '28P01';
    expect(describeStartupFailure(badPassword, settings)).toMatch(/\(password authentication failed\)/);
    expect(describeStartupFailure(badPassword, settings)).not.toContain('hunter2');
  });

  it('SQLite files that cannot be opened, and unknown errors on one line with their cause', () => {
    const sqlite = { ...settings, databaseUrl: 'sqlite:/data/scholia.db' };
    expect(describeStartupFailure(new SQLite.SqliteError('file is not a database', 'SQLITE_NOTADB'), sqlite)).toBe(
      'The SQLite database file /data/scholia.db is damaged or not a database file',
    );
    const wrapped = new Error('database migration 0001_init failed', { cause: new Error('no such\ntable: x') });
    expect(describeStartupFailure(wrapped, sqlite)).toBe('database migration 0001_init failed: no such table: x');
  });
});
