import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Run time after which a long piece of work lets the event loop take other requests. */
const SLICE_MS = 10;

export interface SliceBudget {
  /** Event-loop time the whole piece of work may take, summed over its slices. */
  budgetMs: number;
  /** The error `between()` throws once the work has used its budget. */
  overBudget: () => Error;
}

/**
 * Cuts one request's long work into slices of the event loop: `between()` at each step boundary
 * waits for the next turn once SLICE_MS has passed since the last one, so other requests are
 * served between the steps of a long one (SQLite queries never yield on their own). A cheap
 * request never waits: its steps all fit in one slice.
 *
 * With a budget, `between()` also stops the work once its slices have run for `budgetMs` in all:
 * SQLite cannot interrupt a statement, so the step boundaries are where a time budget can act.
 * Time spent waiting for a turn does not count, so a busy server does not refuse its users' work.
 */
export class EventLoopSlices {
  private sliceStart = performance.now();
  private usedMs = 0;

  constructor(private readonly budget?: SliceBudget) {}

  async between(): Promise<void> {
    const now = performance.now();
    if (this.budget && this.usedMs + (now - this.sliceStart) > this.budget.budgetMs) throw this.budget.overBudget();
    if (now - this.sliceStart < SLICE_MS) return;
    this.usedMs += now - this.sliceStart;
    await nextTurn();
    this.sliceStart = performance.now();
  }
}
