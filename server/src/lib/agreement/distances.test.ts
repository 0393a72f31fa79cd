import { describe, expect, it } from 'vitest';
import { rankingDistance, spanDistance } from './distances.js';

const ranking = (...values: string[]) => values.map((value, i) => ({ value, rank: i + 1 }));

describe('rankingDistance', () => {
  it('is the share of option pairs ordered differently', () => {
    expect(rankingDistance(ranking('a', 'b', 'c'), ranking('a', 'b', 'c'))).toBe(0);
    expect(rankingDistance(ranking('a', 'b', 'c'), ranking('a', 'c', 'b'))).toBeCloseTo(1 / 3, 12);
    expect(rankingDistance(ranking('a', 'b', 'c'), ranking('c', 'b', 'a'))).toBe(1);
  });

  it('counts a tie against an order as half a discordance', () => {
    const tied = [{ value: 'a', rank: 1 }, { value: 'b', rank: 1 }];
    expect(rankingDistance(tied, ranking('a', 'b'))).toBe(0.5);
  });
});

describe('spanDistance', () => {
  it('is 1 - Jaccard of the characters each label covers', () => {
    expect(spanDistance([{ start: 0, end: 10, label: 'PER' }], [{ start: 5, end: 15, label: 'PER' }])).toBeCloseTo(1 - 5 / 15, 12);
    expect(spanDistance([{ start: 0, end: 10, label: 'PER' }], [{ start: 0, end: 10, label: 'ORG' }])).toBe(1);
    expect(spanDistance([{ start: 0, end: 5, label: 'PER' }, { start: 5, end: 10, label: 'PER' }], [{ start: 0, end: 10, label: 'PER' }])).toBe(0);
    expect(spanDistance([], [])).toBe(0);
  });
});
