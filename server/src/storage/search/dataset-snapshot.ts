import type SQLite from 'better-sqlite3';

/**
 * Reads every record of one dataset, a page of rids at a time, together with the dataset's
 * `record_set_versions` version, all in one snapshot: the in-memory copies built from it
 * (metadata columns, text champions) are exact at that version. `passes` walks the records that
 * many times inside the same snapshot (a builder that needs totals before its real pass).
 */

/** Where a worker thread reads from: the SQLite file, or the PostgreSQL URL. */
export type SnapshotSource = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** The JSON column read with each rid. */
export type RecordColumn = 'metadata' | 'fields';

/** `(rid, JSON text)` rows in rid order. */
export type RecordPage = [number, string | null][];

export type PageVisitor = (pass: number, rows: RecordPage) => void;

/** Records read per query. */
const PAGE_ROWS = 5_000;

/** SQLite, in one read transaction; synchronous, so it may also run on the server's own connection. */
export function readSqliteSnapshot(sqlite: SQLite.Database, datasetId: string, column: RecordColumn, passes: number, visit: PageVisitor): number {
  return sqlite.transaction(() => {
    const version = sqlite.prepare('SELECT version FROM record_set_versions WHERE dataset_id = ?').pluck().get(datasetId) as number | undefined;
    const page = sqlite.prepare(`SELECT rid, ${column} FROM records WHERE dataset_id = ? AND rid > ? ORDER BY rid LIMIT ?`).raw();
    for (let pass = 0; pass < passes; pass++) {
      for (let after = -1; ; ) {
        const rows = page.all(datasetId, after, PAGE_ROWS) as RecordPage;
        visit(pass, rows);
        if (rows.length < PAGE_ROWS) break;
        after = rows[rows.length - 1][0];
      }
    }
    return Number(version ?? 0);
  })();
}

/** PostgreSQL, on a connection of its own in one repeatable-read (snapshot) transaction. */
export async function readPostgresSnapshot(url: string, datasetId: string, column: RecordColumn, passes: number, visit: PageVisitor): Promise<number> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  // A lost connection fails the running query; unheard, its error event would end the process.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const versions = await client.query<{ version: string }>('SELECT version FROM record_set_versions WHERE dataset_id = $1', [datasetId]);
    for (let pass = 0; pass < passes; pass++) {
      for (let after = -1; ; ) {
        const { rows } = await client.query<[string, string | null]>({
          text: `SELECT rid, ${column}::text FROM records WHERE dataset_id = $1 AND rid > $2 ORDER BY rid LIMIT $3`,
          values: [datasetId, after, PAGE_ROWS],
          rowMode: 'array',
        });
        visit(pass, rows.map(([rid, json]) => [Number(rid), json]));
        if (rows.length < PAGE_ROWS) break;
        after = Number(rows[rows.length - 1][0]);
      }
    }
    await client.query('COMMIT');
    return Number(versions.rows[0]?.version ?? 0);
  } finally {
    await client.end();
  }
}

/** Reads from a worker thread's source on a connection of its own (SQLite: read-only; WAL lets it read while the server writes). */
export async function readSnapshot(source: SnapshotSource, datasetId: string, column: RecordColumn, passes: number, visit: PageVisitor): Promise<number> {
  if (source.kind === 'postgres') return readPostgresSnapshot(source.url, datasetId, column, passes, visit);
  const { default: SQLiteDatabase } = await import('better-sqlite3');
  const sqlite = new SQLiteDatabase(source.file, { readonly: true, fileMustExist: true });
  try {
    return readSqliteSnapshot(sqlite, datasetId, column, passes, visit);
  } finally {
    sqlite.close();
  }
}
