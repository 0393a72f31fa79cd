import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Tables } from '../tables.js';
import { bulkUpsert, type BulkTable } from './bulk-upsert.js';

interface Row {
  id: number;
  dataset: string;
  label: string | null;
  note?: string | null;
  score: number | string;
  bytes: Uint8Array;
}

const table: BulkTable<Row> = {
  table: 'items',
  columns: [
    ['id', 'integer'],
    ['dataset', 'text'],
    ['label', 'text'],
    ['note', 'text'],
    ['score', 'text'],
    ['bytes', 'bytea'],
  ],
  onConflict: 'ON CONFLICT (id) DO UPDATE SET label = excluded.label, score = excluded.score',
  returning: 'RETURNING id, dataset, label',
};

let sqlite: SQLite.Database;
let db: Kysely<Tables>;

beforeEach(() => {
  sqlite = new SQLite(':memory:');
  sqlite.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, dataset TEXT, label TEXT, note TEXT, score ANY, bytes BLOB) STRICT');
  db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
});
afterEach(() => db.destroy());

const stored = () => sqlite.prepare('SELECT * FROM items ORDER BY id').all() as Record<string, unknown>[];

/** 250 rows: statements of 100, 100 and 50, with columns alike in some statements and not in others. */
function rows(): Row[] {
  return Array.from({ length: 250 }, (_, i) => ({
    id: i + 1,
    dataset: 'd1',
    // alike in the first statement, two values in the second, alike again in the third
    label: i < 100 ? 'same' : i < 200 ? (i % 2 === 0 ? 'even' : 'odd') : 'last',
    ...(i % 3 === 0 ? {} : { note: null }),
    // equal as text, not as a value: 7 and '7' stay apart
    score: i === 120 ? '7' : 7,
    // equal bytes, distinct buffers
    bytes: Buffer.from([1, 2, i % 2]),
  }));
}

describe('bulkUpsert on SQLite through the raw handle', () => {
  it('stores every row as given, whichever columns its statement binds once', async () => {
    const input = rows();
    const returned = await bulkUpsert<Row, { id: number; dataset: string; label: string | null }>(db, table, input, sqlite, { allNew: true });
    expect(returned).toEqual(input.map(({ id, dataset, label }) => ({ id, dataset, label })));
    expect(stored()).toEqual(
      input.map((row) => ({ id: row.id, dataset: row.dataset, label: row.label, note: null, score: row.score, bytes: Buffer.from(row.bytes) })),
    );
  });

  it('gives the same rows as the statements built through the query builder', async () => {
    await bulkUpsert(db, table, rows(), undefined, { allNew: true });
    const built = stored();
    sqlite.exec('DELETE FROM items');
    await bulkUpsert(db, table, rows(), sqlite, { allNew: true });
    expect(stored()).toEqual(built);
  });

  it('updates existing rows through the conflict clause, with shared and per-row values', async () => {
    await bulkUpsert(db, table, rows(), sqlite, { allNew: true });
    const changed = rows().map((row) => ({ ...row, label: row.id % 2 === 0 ? 'changed' : row.label, score: 9 }));
    await bulkUpsert(db, table, changed, sqlite);
    const after = stored();
    expect(after.map((row) => row.label)).toEqual(changed.map((row) => row.label));
    expect(after.every((row) => row.score === 9)).toBe(true);
    expect(after).toHaveLength(250);
  });
});
