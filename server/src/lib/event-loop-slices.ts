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

/**
 * Cuts one request's long work into slices of the event loop: `between()` at each step boundary
 * waits for a turn once SLICE_MS has passed since the last one, so other requests are served
 * between the steps of a long one (SQLite queries never yield on their own). A cheap request
 * never waits: its steps all fit in one slice.
 */
export class EventLoopSlices {
  private sliceStart = performance.now();

  /** `owner`: whose work it is (the user), for the rotation of turns. */
  constructor(private readonly owner = '') {}

  async between(): Promise<void> {
    if (performance.now() - this.sliceStart < SLICE_MS) return;
    await turns.next(this.owner);
    this.sliceStart = performance.now();
  }
}
