import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { columnBuffers, readMetadataColumns } from './metadata-columns-reader.js';

/** Worker thread of storage/search/metadata-columns.ts: reads one dataset's columns on its own connection. */
const { file, datasetId, names } = workerData as { file: string; datasetId: string; names: string[] };
const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
try {
  const columns = readMetadataColumns(sqlite, datasetId, names);
  parentPort!.postMessage(columns, columnBuffers(columns));
} finally {
  sqlite.close();
}
