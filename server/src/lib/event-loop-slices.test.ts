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
});
