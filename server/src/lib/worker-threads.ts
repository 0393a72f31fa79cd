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
