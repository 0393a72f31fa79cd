import type { SnapshotSource } from './dataset-snapshot.js';
import { serveSearchWorker } from './search-worker-entry.js';
import { readTextChampions, type ChampionsRequest } from './text-champions-reader.js';

/** Worker thread of storage/search/text-champions.ts: builds one dataset's champion lists on its own connection. */
await serveSearchWorker(
  ({ source, request }: { source: SnapshotSource; request: ChampionsRequest }) => readTextChampions(source, request),
  (champions) => [champions.rids.buffer as ArrayBuffer, champions.keys.buffer as ArrayBuffer, champions.postings.buffer as ArrayBuffer],
);
