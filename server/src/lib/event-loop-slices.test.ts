import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { EventLoopSlices } from './event-loop-slices.js';

/** Holds the event loop for `ms`, as a synchronous SQLite statement does. */
function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

class OverBudget extends Error {}

describe('EventLoopSlices', () => {
  it('stops the work at a step boundary once its slices have used the budget', async () => {
    const slices = new EventLoopSlices({ budgetMs: 60, overBudget: () => new OverBudget() });
    let steps = 0;
    const work = async () => {
      for (;;) {
        busy(15);
        steps += 1;
        await slices.between();
      }
    };
    await expect(work()).rejects.toBeInstanceOf(OverBudget);
    // 60 ms of budget in 15 ms steps: the fourth or fifth boundary is the first one past it.
    expect(steps).toBeGreaterThanOrEqual(4);
    expect(steps).toBeLessThanOrEqual(5);
  });

  it('does not count the time spent waiting for a turn', async () => {
    const slices = new EventLoopSlices({ budgetMs: 100, overBudget: () => new OverBudget() });
    for (let step = 0; step < 6; step += 1) {
      // another request that holds the loop while this one waits for its turn
      setImmediate(() => busy(30));
      busy(12);
      await slices.between();
    }
  });

  it('lets other work run between slices', async () => {
    const slices = new EventLoopSlices();
    let otherRan = false;
    setImmediate(() => {
      otherRan = true;
    });
    busy(12);
    await slices.between();
    expect(otherRan).toBe(true);
  });
});
