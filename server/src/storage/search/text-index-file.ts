import type SQLite from 'better-sqlite3';
import { TextIndexOp } from './text-index-queue.js';
import { TEXT_SCHEMA } from './text-index.js';

/**
 * SQLite keeps the text index in a file of its own beside the database (`<file>-text`), attached
 * to every connection as `text`. The text indexer writes it from a worker thread on its own
 * connection while the server writes the records' file: two files, two write locks, so neither
 * waits for the other. An in-memory database gets an in-memory text index.
 */
export function textIndexFileOf(databaseFile: string): string {
  return databaseFile === ':memory:' || databaseFile === '' ? ':memory:' : `${databaseFile}-text`;
}

export function attachTextIndexFile(sqlite: SQLite.Database, databaseFile: string): void {
  sqlite.prepare(`ATTACH DATABASE ? AS ${TEXT_SCHEMA}`).run(textIndexFileOf(databaseFile));
  if (textIndexFileOf(databaseFile) === ':memory:') return;
  // Changing the journal mode needs the file to itself: only a new file does (the mode persists).
  if (sqlite.pragma(`${TEXT_SCHEMA}.journal_mode`, { simple: true }) !== 'wal') sqlite.pragma(`${TEXT_SCHEMA}.journal_mode = WAL`);
  sqlite.pragma(`${TEXT_SCHEMA}.synchronous = NORMAL`);
}

/**
 * After the migrations: a text index file without its `through` mark is new (first start, or
 * deleted by hand): the queue is reset to every record of every published dataset, which the
 * indexer then indexes. Runs before the indexer starts, so the server's connection may write
 * the text file this once.
 */
export function prepareTextIndexFile(sqlite: SQLite.Database): void {
  const present = sqlite.prepare(`SELECT 1 FROM ${TEXT_SCHEMA}.sqlite_master WHERE name = 'text_index_state'`).get();
  if (present) return;
  sqlite.transaction(() => {
    sqlite.exec(`CREATE TABLE ${TEXT_SCHEMA}.text_index_state (through INTEGER NOT NULL)`);
    const last = Number(sqlite.prepare('SELECT max(seq) FROM main.text_index_queue').pluck().get() ?? 0);
    sqlite.prepare(`INSERT INTO ${TEXT_SCHEMA}.text_index_state (through) VALUES (?)`).run(last);
    sqlite.exec('DELETE FROM main.text_index_queue');
    // `update`: the file may hold words of an older layout (a migration's rebuild); they are replaced.
    sqlite
      .prepare(
        `INSERT INTO main.text_index_queue (dataset_id, rid, op)
           SELECT r.dataset_id, r.rid, ? FROM main.records r JOIN main.datasets d ON d.id = r.dataset_id
           WHERE d.status = 'ready' ORDER BY r.rid`,
      )
      .run(TextIndexOp.update);
  })();
}
