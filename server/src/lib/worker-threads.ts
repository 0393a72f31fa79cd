import { Worker } from 'node:worker_threads';

/**
 * Starts `<name>.worker` of the folder `moduleUrl` (a caller's import.meta.url) is in. The compiled
 * server starts the worker's JS file. From the sources (tests, `npm run dev`) the worker first
 * registers the TypeScript loader: Node 20 workers ignore `--import` in execArgv.
 */
export function startWorkerThread(moduleUrl: string, name: string, workerData: unknown): Worker {
  if (!moduleUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.worker.js`, moduleUrl), { workerData });
  const entry = new URL(`./${name}.worker.ts`, moduleUrl).href;
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/**
 * Asks a worker started here to stop (it ends between two tasks and closes what it holds), ends
 * it outright if it has not after `graceMs`, and settles once it has exited.
 */
export async function stopWorkerThread(worker: Worker, graceMs = 2_000): Promise<void> {
  if (worker.threadId === -1) return; // exited already: no 'exit' event is coming
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage('stop');
  const timer = setTimeout(() => void worker.terminate(), graceMs);
  await exited;
  clearTimeout(timer);
}
