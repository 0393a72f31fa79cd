import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/** The tables a backup and a restore are compared by: who, what was labelled, and the answers. */
export const COUNTED_TABLES = ['users', 'datasets', 'records', 'responses', 'suggestions', 'vectors'] as const;
export type TableCounts = Record<(typeof COUNTED_TABLES)[number], number>;

/** A backup that could not be made or failed its check; the message says which. */
export class BackupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BackupError';
  }
}

export interface SqliteBackup {
  file: string;
  bytes: number;
  counts: TableCounts;
}

/**
 * A consistent copy of a live SQLite database in `target`, while the server keeps writing.
 *
 * `VACUUM INTO` reads one snapshot (a read transaction: writers go on appending to the
 * write-ahead log) and writes it out compacted. SQLite's page-by-page backup API restarts from the
 * first page whenever another connection writes, so under a steady trickle of answers it never
 * finished. The copy is made beside the target, checked (it opens, `integrity_check` is ok, the
 * counted tables can be read) and only then renamed to `target`: a failed backup leaves no file
 * that looks like one.
 */
export function backupSqlite(sourceFile: string, target: string): SqliteBackup {
  const source = path.resolve(sourceFile);
  const file = path.resolve(target);
  if (!fs.existsSync(source)) throw new BackupError(`The database file ${source} does not exist: check SCHOLIA_DATA_DIR or SCHOLIA_DATABASE_URL`);
  if (fs.existsSync(file)) throw new BackupError(`${file} already exists: name a new file for each backup`);
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.partial-${process.pid}`);
  try {
    const db = new SQLite(source, { fileMustExist: true });
    try {
      // The server holds short write locks; the snapshot needs none, but opening may wait on one.
      db.pragma('busy_timeout = 10000');
      db.prepare('VACUUM INTO ?').run(partial);
    } finally {
      db.close();
    }
    const counts = verifySqliteCopy(partial);
    fsyncFile(partial);
    fs.renameSync(partial, file);
    fsyncFile(path.dirname(file));
    return { file, bytes: fs.statSync(file).size, counts };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(`The backup of ${source} into ${file} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** Opens a copy read-only, runs SQLite's integrity check and counts the counted tables. */
function verifySqliteCopy(file: string): TableCounts {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const problems = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
    const report = problems.map((row) => row.integrity_check);
    if (report.length !== 1 || report[0] !== 'ok') throw new BackupError(`The copy failed its integrity check: ${report.slice(0, 5).join('; ')}`);
    return countSqliteTables(db);
  } finally {
    db.close();
  }
}

export function countSqliteTables(db: SQLite.Database): TableCounts {
  return Object.fromEntries(COUNTED_TABLES.map((table) => [table, (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n])) as TableCounts;
}

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
