import { describe, expect, it } from 'vitest';
import { createSignInBackoff } from './sign-in-backoff.js';

function clockedBackoff(overrides: { maxNames?: number } = {}) {
  let now = 1_000_000;
  const backoff = createSignInBackoff({ freeFailures: 3, maxDelaySeconds: 60, forgetAfterSeconds: 900, maxNames: 1000, ...overrides, now: () => now });
  return { backoff, advance: (seconds: number) => (now += seconds * 1000) };
}

describe('sign-in backoff', () => {
  it('lets the free failures through, then doubles the wait up to the cap', () => {
    const { backoff, advance } = clockedBackoff();
    expect([backoff.attempt('ada'), backoff.attempt('ada'), backoff.attempt('ada')]).toEqual([0, 0, 0]);
    const waits: number[] = [];
    for (let i = 0; i < 9; i += 1) {
      const wait = backoff.attempt('ada');
      waits.push(wait);
      advance(wait);
      expect(backoff.attempt('ada')).toBe(0);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
  });

  it('refused attempts do not lengthen the wait', () => {
    const { backoff, advance } = clockedBackoff();
    for (let i = 0; i < 3; i += 1) backoff.attempt('ada');
    for (let i = 0; i < 50; i += 1) expect(backoff.attempt('ada')).toBe(1);
    advance(1);
    expect(backoff.attempt('ada')).toBe(0);
    expect(backoff.attempt('ada')).toBe(2);
  });

  it('keeps names apart, starts afresh after a success, and forgets a quiet name', () => {
    const { backoff, advance } = clockedBackoff();
    for (let i = 0; i < 3; i += 1) backoff.attempt('ada');
    expect(backoff.attempt('ada')).toBe(1);
    expect(backoff.attempt('grace')).toBe(0);
    advance(1);
    expect(backoff.attempt('ada')).toBe(0);
    backoff.succeeded('ada');
    expect([backoff.attempt('ada'), backoff.attempt('ada'), backoff.attempt('ada')]).toEqual([0, 0, 0]);
    expect(backoff.attempt('ada')).toBe(1);
    advance(901);
    expect(backoff.attempt('ada')).toBe(0);
  });

  it('remembers at most maxNames names, dropping the least recently tried', () => {
    const { backoff } = clockedBackoff({ maxNames: 2 });
    for (let i = 0; i < 3; i += 1) backoff.attempt('a');
    for (let i = 0; i < 3; i += 1) backoff.attempt('b');
    backoff.attempt('c');
    expect(backoff.attempt('b')).toBe(1);
    // 'a' was dropped for 'c': it starts afresh.
    expect(backoff.attempt('a')).toBe(0);
  });
});
