import { parentPort, workerData } from 'node:worker_threads';

/**
 * The worker side of search-worker.ts (kept apart so a worker loads only what it needs): works
 * on its input and posts the result, moving (not copying) the buffers `buffersOf` names.
 */
export async function serveSearchWorker<I, T>(work: (input: I) => Promise<T>, buffersOf: (result: T) => ArrayBuffer[]): Promise<void> {
  const result = await work(workerData as I);
  parentPort!.postMessage(result, buffersOf(result));
}
