/**
 * Distances in [0, 1] between structured answers, for Krippendorff's alpha on rankings and spans
 * (used squared-free: 0 = same answer, 1 = nothing in common).
 */

export interface RankedItem {
  value: string;
  rank: number | null;
}

/**
 * Normalised Kendall tau distance: the share of option pairs the two rankings order differently
 * (a tie in one and an order in the other counts half). Options missing from either are skipped.
 */
export function rankingDistance(a: readonly RankedItem[], b: readonly RankedItem[]): number {
  const rankInB = new Map(b.map((item) => [item.value, item.rank ?? Number.POSITIVE_INFINITY]));
  const shared = a.filter((item) => rankInB.has(item.value)).map((item) => [item.rank ?? Number.POSITIVE_INFINITY, rankInB.get(item.value)!]);
  let pairs = 0;
  let discordance = 0;
  for (let i = 0; i < shared.length; i++) {
    for (let j = i + 1; j < shared.length; j++) {
      pairs += 1;
      const orderA = Math.sign(shared[i][0] - shared[j][0]);
      const orderB = Math.sign(shared[i][1] - shared[j][1]);
      if (orderA === orderB) continue;
      discordance += orderA === 0 || orderB === 0 ? 0.5 : 1;
    }
  }
  return pairs === 0 ? 0 : discordance / pairs;
}

export interface Span {
  start: number;
  end: number;
  label: string;
}

/**
 * 1 - Jaccard overlap of the characters the two span sets cover, per label: two annotations that
 * mark the same characters with the same labels are at 0, disjoint ones at 1. No spans on both sides = 0.
 */
export function spanDistance(a: readonly Span[], b: readonly Span[]): number {
  const labels = new Set([...a, ...b].map((s) => s.label));
  let intersection = 0;
  let union = 0;
  for (const label of labels) {
    const left = mergedIntervals(a.filter((s) => s.label === label));
    const right = mergedIntervals(b.filter((s) => s.label === label));
    const common = overlap(left, right);
    intersection += common;
    union += length(left) + length(right) - common;
  }
  return union === 0 ? 0 : 1 - intersection / union;
}

type Interval = [number, number];

function mergedIntervals(spans: readonly Span[]): Interval[] {
  const sorted = spans.map((s): Interval => [s.start, s.end]).sort((x, y) => x[0] - y[0]);
  const merged: Interval[] = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

const length = (intervals: Interval[]) => intervals.reduce((sum, [start, end]) => sum + (end - start), 0);

function overlap(left: Interval[], right: Interval[]): number {
  let total = 0;
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    total += Math.max(0, Math.min(left[i][1], right[j][1]) - Math.max(left[i][0], right[j][0]));
    if (left[i][1] < right[j][1]) i++;
    else j++;
  }
  return total;
}
