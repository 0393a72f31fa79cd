import type SQLite from 'better-sqlite3';
import { fromJson } from '../json.js';
import { foldQueuedChanges, type DatasetChanges, type QueuedChange } from './text-index-queue.js';
import {
  sqliteCreateTextIndexSql,
  sqliteIndexRow,
  TEXT_SCHEMA,
  textIndexTable,
  type TextIndexField,
} from './text-index.js';

/**
 * One batch of the text index queue (text-index-queue.ts) applied to the index. The caller runs
 * batches until one finds nothing: text-indexer.ts (the server) and text-indexer.worker.ts.
 */
export interface DrainedBatch {
  /** Queue rows applied. */
  changes: number;
  /** Every queue row up to this seq is in the index. */
  through: number;
}

/** rids per IN list. */
const LOOKUP_CHUNK = 500;

/**
 * SQLite: the queue and the records' fields are read from the records' database (`main`) in one
 * short read transaction; the words are worked out outside any transaction; then the text index
 * file (`text`) gets them in one write transaction that also moves the file's `through` mark: the
 * mark and the words it covers are committed together, so a crash loses nothing and repeats
 * nothing. Only the text file is ever written, so the server's writes never wait for the indexer,
 * and no read of the records' file stays open while the index is written (it would hold back
 * the checkpoints of the records' write-ahead log).
 */
export function drainSqliteTextQueue(sqlite: SQLite.Database, maxChanges: number): DrainedBatch {
  const read = sqlite.transaction(() => {
    const through = readThrough(sqlite);
    const rows = sqlite
      .prepare('SELECT seq, dataset_id, rid, op FROM main.text_index_queue WHERE seq > ? ORDER BY seq LIMIT ?')
      .raw()
      .all(through, maxChanges) as QueuedChange[];
    return { through, rows, datasets: foldQueuedChanges(rows).map((changes) => readSqliteChanges(sqlite, changes)) };
  })();
  if (read.rows.length === 0) return { changes: 0, through: read.through };
  const last = read.rows[read.rows.length - 1][0];
  const ready = read.datasets.map((dataset) => ({ ...dataset, rows: dataset.records.map(([rid, json]) => [rid, ...sqliteIndexRow(dataset.fields, fromJson<Record<string, unknown>>(json))]) }));
  sqlite.transaction(() => {
    // One indexer per file: a mark moved meanwhile means another wrote this batch already.
    if (readThrough(sqlite) !== read.through) return;
    for (const dataset of ready) writeSqliteChanges(sqlite, dataset.changes, dataset.fields, dataset.rows);
    sqlite.prepare(`UPDATE ${TEXT_SCHEMA}.text_index_state SET through = ?`).run(last);
  })();
  return { changes: read.rows.length, through: last };
}

/** The seq every queue row up to which is in the SQLite text index file. */
export function readThrough(sqlite: SQLite.Database): number {
  return Number(sqlite.prepare(`SELECT through FROM ${TEXT_SCHEMA}.text_index_state`).pluck().get() ?? 0);
}

/** What a batch needs of one dataset: its fields, and the current fields JSON of the records to index. */
function readSqliteChanges(sqlite: SQLite.Database, changes: DatasetChanges) {
  const fields = changes.drop ? [] : sqliteDatasetFields(sqlite, changes.datasetId);
  const records: [number, string][] = [];
  if (fields.length > 0) {
    for (let start = 0; start < changes.indexed.length; start += LOOKUP_CHUNK) {
      const chunk = changes.indexed.slice(start, start + LOOKUP_CHUNK);
      const read = sqlite.prepare(`SELECT rid, fields FROM main.records WHERE rid IN (${Array(chunk.length).fill('?').join(', ')})`).raw();
      records.push(...(read.all(chunk) as [number, string][]));
    }
  }
  return { changes, fields, records };
}

function writeSqliteChanges(sqlite: SQLite.Database, changes: DatasetChanges, fields: TextIndexField[], rows: unknown[][]): void {
  const table = `${TEXT_SCHEMA}.${textIndexTable(changes.datasetId)}`;
  if (changes.drop) {
    sqlite.prepare(`DROP TABLE IF EXISTS ${table}`).run();
    return;
  }
  if (fields.length === 0) return; // the dataset is gone; its drop is queued after these rows
  sqlite.prepare(sqliteCreateTextIndexSql(changes.datasetId, fields.length)).run();
  const remove = sqlite.prepare(`DELETE FROM ${table} WHERE rowid = ?`);
  for (const rid of [...changes.replaced, ...changes.removed]) remove.run(rid);
  const placeholders = ['?', ...fields.map(() => '?'), '?'].join(', ');
  const insert = sqlite.prepare(`INSERT INTO ${table} (rowid, ${fields.map((_, i) => `c${i}`).join(', ')}, u) VALUES (${placeholders})`);
  for (const row of rows) insert.run(row);
}

/** The dataset's fields in the order its index columns follow (creation order, as at publish). */
function sqliteDatasetFields(sqlite: SQLite.Database, datasetId: string): TextIndexField[] {
  return sqlite.prepare('SELECT name, settings FROM main.fields WHERE dataset_id = ? ORDER BY inserted_at').all(datasetId) as TextIndexField[];
}
