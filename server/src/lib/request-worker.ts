import type { Transferable, Worker } from 'node:worker_threads';
import { stopWorkerThread } from './worker-threads.js';

/** The thread ended or failed before answering: the caller may do the work itself. */
export class WorkerLost extends Error {}

interface Pending<O> {
  resolve: (output: O) => void;
  reject: (error: Error) => void;
}

/**
 * One worker thread that answers requests in order (request-worker-entry.ts on its side). It
 * starts with the first request and stops after `idleStopMs` without one, so a server at rest
 * keeps no heap for it; a thread that fails fails its pending requests with WorkerLost and the
 * next request starts a new one.
 */
export class RequestWorker<I, O> {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending<O>>();
  private nextId = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly start: () => Worker,
    private readonly idleStopMs = 30_000,
  ) {}

  /** Whether a thread is running (tests). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  run(input: I, transfer: Transferable[] = []): Promise<O> {
    clearTimeout(this.idleTimer);
    const worker = (this.worker ??= this.spawn());
    const id = this.nextId++;
    return new Promise<O>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, input }, transfer);
    });
  }

  /** Ends the thread now; pending requests fail with WorkerLost. */
  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined; // the next request starts a new thread rather than wait on this one
    for (const pending of this.pending.values()) pending.reject(new WorkerLost('the thread was stopped'));
    this.pending.clear();
    await stopWorkerThread(worker);
  }

  private spawn(): Worker {
    const worker = this.start();
    worker.unref();
    worker.on('message', ({ id, output, error }: { id: number; output?: O; error?: string }) => {
      const pending = this.pending.get(id);
      this.pending.delete(id);
      if (error !== undefined) pending?.reject(new Error(error));
      else pending?.resolve(output as O);
      if (this.pending.size === 0) this.idleTimer = setTimeout(() => void this.stop(), this.idleStopMs).unref();
    });
    const lost = (reason: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const pending of this.pending.values()) pending.reject(new WorkerLost(reason));
      this.pending.clear();
    };
    worker.on('error', (error) => lost(error.message));
    worker.on('exit', (code) => lost(`worker exited with ${code}`));
    return worker;
  }
}
