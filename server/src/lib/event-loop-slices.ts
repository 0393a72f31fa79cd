import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Run time after which a long piece of work lets the event loop take other requests. */
const SLICE_MS = 10;

/**
 * Cuts one request's long work into slices of the event loop: `between()` at each step boundary
 * waits for the next turn once SLICE_MS has passed since the last one, so other requests are
 * served between the steps of a long one (SQLite queries never yield on their own). A cheap
 * request never waits: its steps all fit in one slice.
 */
export class EventLoopSlices {
  private sliceStart = performance.now();

  async between(): Promise<void> {
    if (performance.now() - this.sliceStart < SLICE_MS) return;
    await nextTurn();
    this.sliceStart = performance.now();
  }
}
