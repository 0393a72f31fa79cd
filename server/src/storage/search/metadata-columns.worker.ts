import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import {
  columnBuffers,
  readPostgresMetadataColumns,
  readSqliteMetadataColumns,
  type ColumnsSource,
  type VersionedColumns,
} from './metadata-columns-reader.js';

/** Worker thread of storage/search/metadata-columns.ts: reads one dataset's columns on its own connection. */

const { source, datasetId, names } = workerData as { source: ColumnsSource; datasetId: string; names: string[] };

async function read(): Promise<VersionedColumns> {
  if (source.kind === 'postgres') return readPostgresMetadataColumns(source.url, datasetId, names);
  const sqlite = new SQLite(source.file, { readonly: true, fileMustExist: true });
  try {
    return readSqliteMetadataColumns(sqlite, datasetId, names);
  } finally {
    sqlite.close();
  }
}

const columns = await read();
parentPort!.postMessage(columns, columnBuffers(columns));
