import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { stopWorkerThread } from './worker-threads.js';

describe('stopWorkerThread', () => {
  it('lets a thread that answers the request stop on its own', async () => {
    const worker = new Worker(`require('node:worker_threads').parentPort.on('message', (m) => { if (m === 'stop') process.exit(7); });`, { eval: true });
    const code = once(worker, 'exit');
    const started = Date.now();
    await stopWorkerThread(worker, 5_000);
    expect((await code)[0]).toBe(7);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('ends a thread that does not answer once the grace time is over', async () => {
    const worker = new Worker(`require('node:worker_threads').parentPort.on('message', () => {});`, { eval: true });
    const started = Date.now();
    await stopWorkerThread(worker, 200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(worker.threadId).toBe(-1);
  });

  it('settles at once for a thread that has exited already', async () => {
    const worker = new Worker('process.exit(0)', { eval: true });
    await once(worker, 'exit');
    await stopWorkerThread(worker);
  });
});
