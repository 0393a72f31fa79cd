import { performance } from 'node:perf_hooks';

/** Run time after which a long piece of work lets the event loop take other requests. */
const SLICE_MS = 10;

/**
 * Gives waiting slices the event loop one per turn, their owners (users) in rotation. One slice
 * per turn puts the loop's I/O phase (new requests, replies) between any two slices, so a cheap
 * request waits for one slice at most, not for every long request under way; the rotation keeps a
 * user with many long requests from taking the turns of a user with one.
 */
class SliceTurns {
  private readonly waiting = new Map<string, Array<() => void>>();
  private scheduled = false;

  next(owner: string): Promise<void> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(owner);
      if (queue) queue.push(resolve);
      else this.waiting.set(owner, [resolve]);
      if (!this.scheduled) this.schedule();
    });
  }

  private schedule(): void {
    this.scheduled = true;
    // An immediate queued while immediates run waits for the loop's next turn.
    setImmediate(() => this.dispatch());
  }

  private dispatch(): void {
    const [owner, queue] = this.waiting.entries().next().value as [string, Array<() => void>];
    const resume = queue.shift()!;
    // Re-inserting sends the owner to the back of the rotation.
    this.waiting.delete(owner);
    if (queue.length > 0) this.waiting.set(owner, queue);
    if (this.waiting.size > 0) this.schedule();
    else this.scheduled = false;
    resume();
  }
}

const turns = new SliceTurns();

export interface SliceBudget {
  /** Event-loop time the whole piece of work may take, summed over its slices. */
  budgetMs: number;
  /** The error `between()` throws once the work has used its budget. */
  overBudget: () => Error;
}

/**
 * Cuts one request's long work into slices of the event loop: `between()` at each step boundary
 * waits for a turn once SLICE_MS has passed since the last one, so other requests are served
 * between the steps of a long one (SQLite queries never yield on their own). A cheap request
 * never waits: its steps all fit in one slice.
 *
 * With a budget, `between()` also stops the work once its slices have run for `budgetMs` in all:
 * SQLite cannot interrupt a statement, so the step boundaries are where a time budget can act.
 * Only the work's own time on the loop counts: not the waits for a turn, nor what it awaits
 * through `outside()` (work done elsewhere, as a worker thread building an in-memory copy).
 */
export class EventLoopSlices {
  private sliceStart = performance.now();
  private usedMs = 0;

  /** `owner`: whose work it is (the user), for the rotation of turns. */
  constructor(
    private readonly owner = '',
    private readonly budget?: SliceBudget,
  ) {}

  async between(): Promise<void> {
    const now = performance.now();
    if (this.budget && this.usedMs + (now - this.sliceStart) > this.budget.budgetMs) throw this.budget.overBudget();
    if (now - this.sliceStart < SLICE_MS) return;
    this.usedMs += now - this.sliceStart;
    await turns.next(this.owner);
    this.sliceStart = performance.now();
  }

  /** Awaits work done off this event loop; the time waited is not the work's own. */
  async outside<T>(elsewhere: Promise<T>): Promise<T> {
    this.usedMs += performance.now() - this.sliceStart;
    try {
      return await elsewhere;
    } finally {
      this.sliceStart = performance.now();
    }
  }
}
