import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { RequestWorker, WorkerLost } from './request-worker.js';

/** A thread speaking request-worker-entry.ts's protocol: doubles numbers, fails on 'fail', dies on 'die'. */
const THREAD = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (message) => {
  if (message === 'stop') return parentPort.close();
  const { id, input } = message;
  if (input === 'die') process.exit(3);
  if (input === 'fail') return parentPort.postMessage({ id, error: 'failed on purpose' });
  setTimeout(() => parentPort.postMessage({ id, output: input * 2 }), input === 1 ? 30 : 0);
});`;
const startThread = () => new Worker(THREAD, { eval: true });

describe('RequestWorker', () => {
  it('answers each request with its own output, whatever order they finish in', async () => {
    const worker = new RequestWorker<number, number>(startThread);
    expect(await Promise.all([worker.run(1), worker.run(2), worker.run(3)])).toEqual([2, 4, 6]);
    await worker.stop();
  });

  it('passes on a failed request and goes on with the next', async () => {
    const worker = new RequestWorker<unknown, number>(startThread);
    await expect(worker.run('fail')).rejects.toThrow('failed on purpose');
    expect(await worker.run(5)).toBe(10);
    await worker.stop();
  });

  it('fails the pending requests with WorkerLost when the thread dies, and starts a new one for the next', async () => {
    const worker = new RequestWorker<unknown, number>(startThread);
    const pending = worker.run(1);
    const dying = worker.run('die');
    await expect(pending).rejects.toBeInstanceOf(WorkerLost);
    await expect(dying).rejects.toBeInstanceOf(WorkerLost);
    expect(worker.running).toBe(false);
    expect(await worker.run(4)).toBe(8);
    await worker.stop();
  });

  it('stops its thread once idle', async () => {
    const worker = new RequestWorker<number, number>(startThread, 100);
    expect(await worker.run(2)).toBe(4);
    expect(worker.running).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect(worker.running).toBe(false);
    expect(await worker.run(3)).toBe(6);
    await worker.stop();
  });
});
