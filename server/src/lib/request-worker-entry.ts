import { parentPort, type Transferable } from 'node:worker_threads';

/** The worker side of request-worker.ts: answers each request with `handle`'s output, moving the buffers it names, until asked to stop. */
export function serveRequests<I, O>(handle: (input: I) => { output: O; transfer?: Transferable[] }): void {
  parentPort!.on('message', (message: { id: number; input: I } | 'stop') => {
    // Asked to stop (worker-threads.ts): the requests before it are answered already.
    if (message === 'stop') return parentPort!.close();
    const { id, input } = message;
    let answer: { output: O; transfer?: Transferable[] };
    try {
      answer = handle(input);
    } catch (error) {
      parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
      return;
    }
    parentPort!.postMessage({ id, output: answer.output }, answer.transfer ?? []);
  });
}
