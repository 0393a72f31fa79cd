import { parentPort, workerData } from 'node:worker_threads';
import type { SnapshotSource } from './dataset-snapshot.js';
import { columnBuffers, readMetadataColumns } from './metadata-columns-reader.js';

/** Worker thread of storage/search/metadata-columns.ts: reads one dataset's columns on its own connection. */

const { source, datasetId, names } = workerData as { source: SnapshotSource; datasetId: string; names: string[] };
const columns = await readMetadataColumns(source, datasetId, names);
parentPort!.postMessage(columns, columnBuffers(columns));
