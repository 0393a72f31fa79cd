import type { SnapshotSource } from './dataset-snapshot.js';
import { serveSearchWorker } from './search-worker-entry.js';
import { readTextChampions, type ChampionsRequest } from './text-champions-reader.js';

/** Child process of storage/search/text-champions.ts: builds one dataset's champion lists on its own connection. */
serveSearchWorker(({ source, request }: { source: SnapshotSource; request: ChampionsRequest }) => readTextChampions(source, request));
