/**
 * Database and file-system failures that are the server's resources running out, not a bug: the
 * client gets a status and a sentence saying so instead of a generic 500 (the log keeps the cause).
 */
export interface StorageFailure {
  status: 503 | 507;
  detail: string;
}

const DISK_FULL: StorageFailure = { status: 507, detail: "The server's disk is full; the change was not saved." };
const OUT_OF_RESOURCES: StorageFailure = {
  status: 503,
  detail: 'The database server is out of memory or other resources; the request was not completed. Try again later.',
};

/**
 * SQLite's SQLITE_FULL (better-sqlite3 `code`), PostgreSQL's SQLSTATE class 53 "insufficient
 * resources" (`pg` `code`: 53100 disk_full; 53200 out_of_memory and the rest of the class: 503)
 * and Node's ENOSPC. Looked for along the `cause` chain, as a failed transaction or migration
 * wraps the driver's error.
 */
export function storageFailure(error: unknown): StorageFailure | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Object; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC') return DISK_FULL;
    if (typeof code === 'string' && /^53\d\d\d$/.test(code)) return OUT_OF_RESOURCES;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
