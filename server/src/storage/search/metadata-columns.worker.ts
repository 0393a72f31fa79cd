import type { SnapshotSource } from './dataset-snapshot.js';
import { columnBuffers, readMetadataColumns } from './metadata-columns-reader.js';
import { serveSearchWorker } from './search-worker-entry.js';

/** Worker thread of storage/search/metadata-columns.ts: reads one dataset's columns on its own connection. */
await serveSearchWorker(({ source, datasetId, names }: { source: SnapshotSource; datasetId: string; names: string[] }) => readMetadataColumns(source, datasetId, names), columnBuffers);
