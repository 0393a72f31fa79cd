import SQLite from 'better-sqlite3';
import { COUNTED_TABLES, countSqliteTables, type TableCounts } from './backup.js';

/** What a restore check compares on one database. */
export interface DatabaseInventory {
  counts: TableCounts;
  migrations: string[];
  /** PostgreSQL: the `vector` extension is installed (undefined on SQLite). */
  pgvector?: boolean;
}

/** `sqlite:<file>`, a bare file path, or `postgres://…`; read only, never migrated. */
export async function readInventory(url: string): Promise<DatabaseInventory> {
  if (/^postgres(ql)?:\/\//.test(url)) return readPostgresInventory(url);
  const db = new SQLite(url.replace(/^sqlite:/, ''), { readonly: true, fileMustExist: true });
  try {
    const migrations = (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((row) => row.name);
    return { counts: countSqliteTables(db), migrations };
  } finally {
    db.close();
  }
}

async function readPostgresInventory(url: string): Promise<DatabaseInventory> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    const counts = {} as TableCounts;
    for (const table of COUNTED_TABLES) {
      // A table the restore dropped (pg_restore goes on after errors) is a difference, not a crash.
      const exists = await client.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [`public.${table}`]);
      counts[table] = exists.rows[0].found ? Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0].n) : -1;
    }
    const migrationsTable = await client.query<{ found: string | null }>("SELECT to_regclass('public.kysely_migration') AS found");
    const migrations = migrationsTable.rows[0].found ? (await client.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).rows.map((row) => row.name) : [];
    const extension = await client.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'");
    return { counts, migrations, pgvector: (extension.rowCount ?? 0) > 0 };
  } finally {
    await client.end();
  }
}

/** One line per difference between the source and its restored copy; none when they agree. */
export function compareInventories(source: DatabaseInventory, restored: DatabaseInventory): string[] {
  const differences: string[] = [];
  for (const table of COUNTED_TABLES) {
    const [before, after] = [source.counts[table], restored.counts[table]];
    if (before !== after) differences.push(`${table}: ${before} in the source, ${after < 0 ? 'no table' : after} in the restored database`);
  }
  const missing = source.migrations.filter((name) => !restored.migrations.includes(name));
  if (missing.length > 0) differences.push(`migrations missing in the restored database: ${missing.join(', ')}`);
  if (source.pgvector && restored.pgvector === false) differences.push('the vector extension (pgvector) is missing in the restored database: create it as a superuser, then restore again');
  return differences;
}
