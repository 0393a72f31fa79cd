import fs from 'node:fs';
import { sql, type Kysely } from 'kysely';
import type { Database } from './dialect.js';
import { fromJson } from './json.js';
import { openDatabase, sqliteHandle } from './open-database.js';
import { createMetadataIndex, listFields } from './repositories/dataset-settings.repository.js';
import { createTextIndex, indexRecordTexts, type IndexedRecord, type TextIndexField } from './search/text-index.js';
import type { Tables } from './tables.js';
import { TABLES_IN_KEY_ORDER } from './table-order.js';

/**
 * Copies a SQLite database into an empty PostgreSQL one (migration and backup, scale issue).
 * Both are first brought to the latest migration (so the source file is migrated in place, as a
 * server start would), then every table is copied row for row in foreign-key order inside one
 * PostgreSQL transaction: all or nothing. Per-dataset text indexes and metadata indexes are
 * rebuilt on PostgreSQL; `vector_set_versions`, `record_set_versions` and `response_set_versions`
 * are rebuilt by their triggers as vectors, records and responses arrive, and SQLite's
 * `dataset_record_counts` has no PostgreSQL counterpart.
 */

const TABLES = TABLES_IN_KEY_ORDER;

/**
 * Rebuilt on the target, never copied: migration bookkeeping, FTS5 tables, trigger-kept counters,
 * and the text index queue (the target's text indexes are built whole below).
 */
const DERIVED = /^(sqlite_|kysely_|fts_|vector_set_versions$|dataset_record_counts$|record_set_versions$|response_set_versions$|text_index_queue$)/;

export interface CopyReport {
  /** rows copied per table */
  tables: Record<string, number>;
  /** published datasets whose text index was rebuilt */
  textIndexes: number;
}

export interface CopyOptions {
  /** Rows per INSERT (bounded by PostgreSQL's 65535 parameters). */
  batchRows?: number;
  log?: (message: string) => void;
}

export async function copySqliteToPostgres(sqliteFile: string, postgresUrl: string, options: CopyOptions = {}): Promise<CopyReport> {
  if (!fs.existsSync(sqliteFile)) throw new Error(`no such SQLite file: ${sqliteFile}`);
  if (!postgresUrl.startsWith('postgres')) throw new Error('the target must be a postgres:// URL');
  const log = options.log ?? (() => {});
  // Neither side indexes text in the background: the copy builds the target's indexes itself.
  const source = await openDatabase(`sqlite:${sqliteFile}`, { textIndexer: false, searchReader: false });
  let target: Database | undefined;
  try {
    target = await openDatabase(postgresUrl, { textIndexer: false, searchReader: false });
    const raw = sqliteHandle(source.db);
    const present = (raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[])
      .map((row) => row.name)
      .filter((name) => !DERIVED.test(name));
    const unknown = present.filter((name) => !(TABLES as readonly string[]).includes(name));
    if (unknown.length > 0) throw new Error(`tables this tool does not know how to copy: ${unknown.join(', ')}`);
    for (const table of TABLES) {
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(target.db);
      // A server started on the empty target may have created its owner and secret: only those may exist.
      if (Number(rows[0].n) > 0 && table !== 'instance_settings') throw new Error(`the target database is not empty (table ${table})`);
    }

    const report: CopyReport = { tables: {}, textIndexes: 0 };
    await target.db.transaction().execute(async (trx) => {
      await sql`DELETE FROM instance_settings`.execute(trx);
      for (const table of TABLES) {
        report.tables[table] = await copyTable(raw, trx, table, options.batchRows);
        log(`${table}: ${report.tables[table]} rows`);
      }
      // rid is a bigserial: continue after the copied keys.
      await sql`SELECT setval(pg_get_serial_sequence('records', 'rid'), GREATEST((SELECT max(rid) FROM records), 1))`.execute(trx);
      // The record-set version triggers wait for commit (migration 202611240500); PostgreSQL refuses
      // an index on a table with waiting trigger events, so they run now.
      await sql`SET CONSTRAINTS ALL IMMEDIATE`.execute(trx);
      report.textIndexes = await rebuildIndexes(trx);
      log(`text indexes rebuilt: ${report.textIndexes}`);
    });
    return report;
  } finally {
    await source.close();
    await target?.close();
  }
}

async function copyTable(raw: ReturnType<typeof sqliteHandle>, trx: Kysely<Tables>, table: string, batchRows?: number): Promise<number> {
  const columns = (raw.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((c) => c.name);
  if (columns.length === 0) return 0;
  const perInsert = Math.max(1, Math.min(batchRows ?? 1000, Math.floor(30_000 / columns.length)));
  // rowid order: insertion order, and records keep their rid (the key of text index and paging).
  const statement = raw.prepare(`SELECT * FROM "${table}" ORDER BY rowid`);
  let batch: Record<string, unknown>[] = [];
  let copied = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await trx.insertInto(table as keyof Tables).values(batch as never).execute();
    copied += batch.length;
    batch = [];
  };
  for (const row of statement.iterate() as Iterable<Record<string, unknown>>) {
    batch.push(row);
    if (batch.length >= perInsert) await flush();
  }
  await flush();
  return copied;
}

/** Text indexes of published datasets (as publishing creates them) and every metadata index. */
async function rebuildIndexes(trx: Kysely<Tables>): Promise<number> {
  for (const property of await trx.selectFrom('metadata_properties').select(['id', 'name', 'dataset_id']).execute()) {
    await createMetadataIndex(trx, 'postgres', property);
  }
  const datasets = await trx.selectFrom('datasets').select('id').where('status', '=', 'ready').execute();
  for (const { id } of datasets) {
    const fields: TextIndexField[] = await listFields(trx, id); // the order publishing indexed them in
    await createTextIndex(trx, 'postgres', id, fields);
    let after = 0;
    for (;;) {
      const rows = await trx
        .selectFrom('records')
        .select(['rid', 'fields'])
        .where('dataset_id', '=', id)
        .where('rid', '>', after)
        .orderBy('rid')
        .limit(2000)
        .execute();
      if (rows.length === 0) break;
      const records: IndexedRecord[] = rows.map((row) => ({ rid: Number(row.rid), fields: fromJson<Record<string, unknown>>(row.fields) }));
      await indexRecordTexts(trx, 'postgres', id, fields, records, { fresh: true });
      after = records[records.length - 1].rid;
    }
  }
  return datasets.length;
}
