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
    const started = performance.now();
    const work = async () => {
      for (;;) {
        busy(15);
        steps += 1;
        await slices.between();
      }
    };
    await expect(work()).rejects.toBeInstanceOf(OverBudget);
    // Not before the budget is used; at most one 15 ms step past it (a busy machine only makes steps longer).
    expect(performance.now() - started).toBeGreaterThanOrEqual(60);
    expect(steps).toBeLessThanOrEqual(5);
  });

  it('does not count the time spent waiting for a turn', async () => {
    // 72 ms of its own work against a 1 s budget; the other request's 1.2 s would pass it if counted.
    const slices = new EventLoopSlices({ budgetMs: 1_000, overBudget: () => new OverBudget() });
    for (let step = 0; step < 6; step += 1) {
      setImmediate(() => busy(200));
      busy(12);
      await expect(slices.between()).resolves.toBeUndefined();
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
