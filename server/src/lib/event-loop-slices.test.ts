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

/** A long piece of work of `owner`: `steps` steps of 12 ms (one slice each), logged as `name<step>`. */
async function longWork(owner: string, name: string, steps: number, log: string[], onStep?: (step: number) => void) {
  const slices = new EventLoopSlices(owner);
  for (let step = 1; step <= steps; step += 1) {
    onStep?.(step);
    busy(12);
    log.push(`${name}${step}`);
    await slices.between();
  }
}

class OverBudget extends Error {}

describe('EventLoopSlices', () => {
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

  it('does not wait while a slice has time left', async () => {
    const slices = new EventLoopSlices();
    let otherRan = false;
    setImmediate(() => {
      otherRan = true;
    });
    await slices.between();
    expect(otherRan).toBe(false);
  });

  it('runs one slice per turn of the loop, so a timer waits for one slice, not for every long request', async () => {
    const log: string[] = [];
    // A timer set as a's second slice starts is due when that slice ends.
    const setTimer = (step: number) => step === 2 && setTimeout(() => log.push('timer'), 1);
    await Promise.all([longWork('a', 'a', 3, log, setTimer), longWork('b', 'b', 3, log), longWork('c', 'c', 3, log)]);
    expect(log.slice(0, 5)).toEqual(['a1', 'b1', 'c1', 'a2', 'timer']);
  });

  it('takes owners in rotation, so one user with many long requests does not hold the others back', async () => {
    const log: string[] = [];
    const flood = Array.from({ length: 4 }, (_, i) => longWork('flooder', `f${i}-`, 2, log));
    const one = longWork('reader', 'r', 2, log);
    await Promise.all([...flood, one]);
    // Its second step comes after one of the flooder's, not after all four.
    const secondSlices = log.slice(5);
    expect(secondSlices.indexOf('r2')).toBeLessThanOrEqual(1);
  });

  it('stops the work at a step boundary once its slices have used the budget', async () => {
    const slices = new EventLoopSlices('', { budgetMs: 60, overBudget: () => new OverBudget() });
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
    // 72 ms of its own work against a 1 s budget; the other work's 1.2 s would pass it if counted.
    const slices = new EventLoopSlices('', { budgetMs: 1_000, overBudget: () => new OverBudget() });
    for (let step = 0; step < 6; step += 1) {
      setImmediate(() => busy(200));
      busy(12);
      await expect(slices.between()).resolves.toBeUndefined();
    }
  });

  it('does not count what it awaits outside the event loop', async () => {
    const slices = new EventLoopSlices('', { budgetMs: 100, overBudget: () => new OverBudget() });
    busy(20);
    await slices.outside(new Promise((resolve) => setTimeout(resolve, 300)));
    busy(20);
    await expect(slices.between()).resolves.toBeUndefined();
    busy(70);
    await expect(slices.between()).rejects.toBeInstanceOf(OverBudget);
  });
});
