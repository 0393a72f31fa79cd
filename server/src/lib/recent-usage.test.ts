import { describe, expect, it } from 'vitest';
import { RecentUsage } from './recent-usage.js';

describe('recent usage', () => {
  it('adds up use and halves it every half-life', () => {
    const usage = new RecentUsage(1_000);
    usage.add('a', 100, 0);
    usage.add('a', 100, 0);
    expect(usage.of('a', 0)).toBe(200);
    expect(usage.of('a', 1_000)).toBeCloseTo(100);
    expect(usage.of('a', 2_000)).toBeCloseTo(50);
    // Use added later counts whole, on top of what is left of the earlier.
    usage.add('a', 50, 1_000);
    expect(usage.of('a', 1_000)).toBeCloseTo(150);
    expect(usage.of('b', 0)).toBe(0);
  });

  it('forgets a user only once their use is under a millisecond', () => {
    const usage = new RecentUsage(1_000);
    usage.add('a', 4, 0);
    usage.add('b', 400, 0);
    usage.forgetIdle(1_000);
    expect(usage.size).toBe(2);
    usage.forgetIdle(3_000); // a: 0.5 ms, b: 50 ms
    expect(usage.size).toBe(1);
    expect(usage.of('b', 3_000)).toBeCloseTo(50);
  });
});
