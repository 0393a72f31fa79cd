import type { SnapshotSource } from './dataset-snapshot.js';
import { readMetadataColumns } from './metadata-columns-reader.js';
import { serveSearchWorker } from './search-worker-entry.js';

/** Child process of storage/search/metadata-columns.ts: reads one dataset's columns on its own connection. */
serveSearchWorker(({ source, datasetId, names }: { source: SnapshotSource; datasetId: string; names: string[] }) => readMetadataColumns(source, datasetId, names));
