import { COUNTED_TABLES } from '../storage/backup.js';
import { compareInventories, readInventory } from '../storage/restore-check.js';

/**
 * Compares a database with its restored copy (docs/deployment.md, Backups):
 *
 *   npm run restore-check -- <source> <restored>
 *
 * Each is `postgres://…`, `sqlite:<file>` or an SQLite file. Counts users, datasets, records,
 * responses, suggestions and vectors, the applied migrations and, on PostgreSQL, pgvector. Neither
 * database is changed. Exit status 0 when they agree, 1 with one line per difference, 2 for a
 * wrong invocation. Compare while nothing writes to the source, or against the backup file itself.
 */
const [sourceUrl, restoredUrl, ...extra] = process.argv.slice(2);
if (!sourceUrl || !restoredUrl || extra.length > 0) {
  console.error('usage: npm run restore-check -- <source database> <restored database>   (postgres://… or sqlite:<file>)');
  process.exit(2);
}
try {
  const [source, restored] = await Promise.all([readInventory(sourceUrl), readInventory(restoredUrl)]);
  const differences = compareInventories(source, restored);
  const counts = COUNTED_TABLES.map((table) => `${table} ${restored.counts[table]}`).join(', ');
  if (differences.length > 0) {
    for (const difference of differences) console.error(`restore-check: ${difference}`);
    process.exit(1);
  }
  console.log(`restore-check: the restored database matches: ${counts}${restored.pgvector ? ', pgvector installed' : ''}`);
} catch (error) {
  console.error(`restore-check failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
