import path from 'node:path';
import { readConfig } from '../config.js';
import { backupSqlite, BackupError } from '../storage/backup.js';

/**
 * A verified copy of the SQLite database of this install's settings, made while the server runs
 * (docs/deployment.md, Backups):
 *
 *   npm run backup -- /backups/scholia-$(date +%F).db
 *
 * Reads SCHOLIA_DATABASE_URL and SCHOLIA_DATA_DIR as the server does. Exit status 0 with one line
 * of counts, 1 when the backup failed (no file is left at the target), 2 for a wrong invocation.
 * PostgreSQL is backed up with pg_dump, as the same page shows.
 */
const [target, ...extra] = process.argv.slice(2);
if (!target || extra.length > 0) {
  console.error('usage: npm run backup -- <target file>   (a new file; the database is the one SCHOLIA_DATABASE_URL / SCHOLIA_DATA_DIR name)');
  process.exit(2);
}
try {
  const config = readConfig();
  if (!config.databaseUrl.startsWith('sqlite:')) {
    console.error('backup: the database is PostgreSQL; back it up with pg_dump (docs/deployment.md, Backups)');
    process.exit(2);
  }
  const sourceFile = config.databaseUrl.replace(/^sqlite:/, '');
  if (sourceFile === ':memory:') throw new BackupError('An in-memory database cannot be backed up');
  // npm runs this in server/; a relative target means the folder the command was typed in.
  const started = Date.now();
  const backup = backupSqlite(sourceFile, path.resolve(process.env.INIT_CWD ?? process.cwd(), target));
  const counts = Object.entries(backup.counts).map(([table, n]) => `${table} ${n}`).join(', ');
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`backup: ${backup.file} (${(backup.bytes / 1024 / 1024).toFixed(1)} MiB) in ${seconds} s, integrity ok: ${counts}`);
} catch (error) {
  console.error(`backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
