import { copySqliteToPostgres } from '../storage/copy-database.js';

/**
 * Copies a Scholia SQLite database into an empty PostgreSQL database (README "PostgreSQL"):
 *
 *   npx tsx server/src/tools/copy-sqlite-to-postgres.ts <sqlite file> <postgres url>
 *
 * Stop the server first (the copy reads a consistent file). The target gets the same migrations;
 * text and metadata indexes are rebuilt there. All or nothing: a failure leaves the target empty.
 */
const [sqliteFile, postgresUrl] = process.argv.slice(2);
if (!sqliteFile || !postgresUrl) {
  console.error('usage: npx tsx server/src/tools/copy-sqlite-to-postgres.ts <sqlite file> <postgres url>');
  process.exit(2);
}
try {
  const started = Date.now();
  const report = await copySqliteToPostgres(sqliteFile, postgresUrl, { log: (message) => console.log(message) });
  const rows = Object.values(report.tables).reduce((sum, n) => sum + n, 0);
  console.log(`copied ${rows} rows and rebuilt ${report.textIndexes} text indexes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(`copy failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
