import fs from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';

/**
 * The server's storage cannot be written. Raised at start, so the server stops with this message
 * instead of starting and then failing every write.
 */
export class StorageNotWritableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageNotWritableError';
  }
}

/**
 * Creates `folder` and its missing parents one level at a time. Node's recursive mkdir never
 * returns for a folder inside /proc (the kernel answers ENOENT there, and it retries the parent
 * that exists); here that ENOENT is an error like any other.
 */
export function makeFolder(folder: string): void {
  const missing: string[] = [];
  let current = path.resolve(folder);
  while (!fs.existsSync(current)) {
    missing.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const level of missing) {
    try {
      fs.mkdirSync(level);
    } catch (error) {
      // Another process starting at the same moment made it.
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    }
  }
}

/** Creates `folder` when missing, then creates and removes a file in it. */
export function assertWritableFolder(folder: string, what: string): void {
  try {
    makeFolder(folder);
  } catch (error) {
    throw new StorageNotWritableError(`The ${what} ${folder} cannot be created (${errorCode(error)}): check the permissions of its parent folder`, { cause: error });
  }
  const probe = path.join(folder, `.write-probe-${process.pid}`);
  try {
    fs.writeFileSync(probe, '');
    fs.rmSync(probe, { force: true });
  } catch (error) {
    throw new StorageNotWritableError(`The ${what} ${folder} is not writable (${errorCode(error)}): the server creates files there; check its owner and permissions`, {
      cause: error,
    });
  }
}

/**
 * SQLite opens a file it may not write read-only without a word, and every write then fails. A
 * write (the header's user_version set to its own value), rolled back, finds that out at start.
 */
export function assertWritableSqlite(sqlite: SQLite.Database, file: string): void {
  const version = Number(sqlite.pragma('user_version', { simple: true }));
  try {
    sqlite.exec('BEGIN IMMEDIATE');
    try {
      sqlite.pragma(`user_version = ${version}`);
    } finally {
      sqlite.exec('ROLLBACK');
    }
  } catch (error) {
    throw new StorageNotWritableError(`The database file ${file} is read-only (${errorCode(error)}): the server writes to it; check its owner and permissions`, { cause: error });
  }
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : String(error);
}
