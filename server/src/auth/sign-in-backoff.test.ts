import { describe, expect, it } from 'vitest';
import { createSignInBackoff, ENTRY_BYTES } from './sign-in-backoff.js';

function clockedBackoff(overrides: { maxNames?: number; maxBytes?: number } = {}) {
  let now = 1_000_000;
  const backoff = createSignInBackoff({
    freeFailures: 3,
    maxDelaySeconds: 60,
    forgetAfterSeconds: 900,
    maxNames: 1000,
    maxBytes: 1024 * 1024,
    ...overrides,
    now: () => now,
  });
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

  it('remembers at most maxBytes of names, long names counting for more', () => {
    const cost = (name: string) => ENTRY_BYTES + 2 * name.length;
    const long = 'l'.repeat(200);
    const { backoff } = clockedBackoff({ maxBytes: cost('a') + cost('b') + cost(long) });
    for (const name of ['b', long, 'a']) for (let i = 0; i < 3; i += 1) backoff.attempt(name);
    expect(backoff.attempt('a')).toBe(1);
    // A second long name takes the room of the two least recently tried, 'b' and the first long name.
    for (let i = 0; i < 3; i += 1) backoff.attempt('m'.repeat(200));
    expect(backoff.attempt('a')).toBe(1);
    expect(backoff.attempt('b')).toBe(0);
    expect(backoff.attempt(long)).toBe(0);
  });

  it('a name over the whole byte budget pushes no other name out', () => {
    const { backoff } = clockedBackoff({ maxBytes: 10 * ENTRY_BYTES });
    for (let i = 0; i < 3; i += 1) backoff.attempt('ada');
    for (let i = 0; i < 3; i += 1) backoff.attempt('x'.repeat(10 * ENTRY_BYTES));
    expect(backoff.attempt('ada')).toBe(1);
  });

  it('stays within its byte budget under a flood of distinct long names', () => {
    const maxBytes = 64 * 1024;
    const { backoff } = clockedBackoff({ maxNames: 100_000, maxBytes });
    const names = Array.from({ length: 5_000 }, (_, i) => `${i}:${'n'.repeat(1_000)}`);
    for (const name of names) for (let i = 0; i < 3; i += 1) backoff.attempt(name);
    // Newest first: a refused attempt changes nothing, so each answer shows what was remembered.
    const waiting = names.toReversed().filter((name) => backoff.attempt(name) > 0);
    // The most recent names, and no more than their characters alone would fill.
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.length).toBeLessThanOrEqual(maxBytes / (2 * names[0].length));
    expect(waiting).toEqual(names.slice(-waiting.length).toReversed());
  });
});
