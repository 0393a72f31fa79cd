import { parentPort, workerData } from 'node:worker_threads';
import type { SnapshotSource } from './dataset-snapshot.js';
import { readTextChampions, type ChampionsRequest } from './text-champions-reader.js';

/** Worker thread of storage/search/text-champions.ts: builds one dataset's champion lists on its own connection. */

const { source, request } = workerData as { source: SnapshotSource; request: ChampionsRequest };
const champions = await readTextChampions(source, request);
parentPort!.postMessage(champions, [champions.rids.buffer as ArrayBuffer, champions.keys.buffer as ArrayBuffer]);
