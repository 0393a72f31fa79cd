/**
 * Krippendorff's alpha over coded units (Krippendorff 2011, "Computing Krippendorff's
 * Alpha-Reliability"): alpha = 1 - D_o / D_e, with the observed disagreement D_o taken from the
 * coincidence of values within units and the expected disagreement D_e from all pairable values.
 * Values are category indices; a metric gives the squared distance of two categories.
 */

/** Distance of categories c and k; `marginals[c]` = pairable values of category c (ordinal needs them). */
export type Metric = (c: number, k: number, marginals: Float64Array) => number;

export const nominalMetric: Metric = (c, k) => (c === k ? 0 : 1);

/** Interval metric: squared difference of the categories' numeric values. */
export function intervalMetric(values: readonly number[]): Metric {
  return (c, k) => (values[c] - values[k]) ** 2;
}

/** Ordinal metric for categories indexed in their order: the values between c and k, counted by the marginals. */
export const ordinalMetric: Metric = (c, k, marginals) => {
  if (c === k) return 0;
  const [low, high] = c < k ? [c, k] : [k, c];
  let between = 0;
  for (let g = low; g <= high; g++) between += marginals[g];
  return (between - (marginals[low] + marginals[high]) / 2) ** 2;
};

/** Above this many distinct categories D_e is estimated from sampled pairs instead of every pair of categories. */
const EXACT_CATEGORY_LIMIT = 400;
const SAMPLED_PAIRS = 200_000;

export interface AlphaResult {
  /** null when there is nothing to compare (fewer than two pairable values) or no variation at all (D_e = 0) */
  alpha: number | null;
  /** pairable values (those in units with at least two values) */
  pairable: number;
}

/** Alpha for `units` (each the category indices the coders gave one unit; order irrelevant). */
export function krippendorffAlpha(units: readonly (readonly number[])[], categoryCount: number, metric: Metric): AlphaResult {
  const marginals = new Float64Array(categoryCount);
  // Coincidences of distinct categories, keyed c * categoryCount + k with c < k; equal pairs add no disagreement.
  const coincidences = new Map<number, number>();
  let pairable = 0;
  for (const unit of units) {
    const m = unit.length;
    if (m < 2) continue;
    pairable += m;
    for (let i = 0; i < m; i++) marginals[unit[i]] += 1;
    for (let i = 0; i < m; i++) {
      for (let j = i + 1; j < m; j++) {
        const c = unit[i];
        const k = unit[j];
        if (c === k) continue;
        const key = c < k ? c * categoryCount + k : k * categoryCount + c;
        // Each unordered pair counts twice (c-k and k-c), each weighted 1 / (m - 1).
        coincidences.set(key, (coincidences.get(key) ?? 0) + 2 / (m - 1));
      }
    }
  }
  if (pairable < 2) return { alpha: null, pairable };
  let observed = 0;
  for (const [key, weight] of coincidences) observed += weight * metric(Math.floor(key / categoryCount), key % categoryCount, marginals);
  observed /= pairable;
  const expected = expectedDisagreement(units, marginals, pairable, metric);
  if (expected === 0) return { alpha: null, pairable };
  return { alpha: 1 - observed / expected, pairable };
}

/** D_e: the mean distance over ordered pairs of distinct pairable values. */
function expectedDisagreement(units: readonly (readonly number[])[], marginals: Float64Array, n: number, metric: Metric): number {
  const present: number[] = [];
  for (let c = 0; c < marginals.length; c++) if (marginals[c] > 0) present.push(c);
  if (present.length <= EXACT_CATEGORY_LIMIT) {
    let sum = 0;
    for (let a = 0; a < present.length; a++) {
      for (let b = a + 1; b < present.length; b++) {
        const c = present[a];
        const k = present[b];
        sum += 2 * marginals[c] * marginals[k] * metric(c, k, marginals);
      }
    }
    return sum / (n * (n - 1));
  }
  // Many distinct values (spans, rankings): the mean over uniformly drawn pairs, from a fixed seed so answers repeat.
  const pooled: number[] = [];
  for (const unit of units) if (unit.length >= 2) pooled.push(...unit);
  const random = seededRandom(0x5eed);
  let sum = 0;
  for (let s = 0; s < SAMPLED_PAIRS; s++) {
    const i = Math.floor(random() * n);
    let j = Math.floor(random() * (n - 1));
    if (j >= i) j += 1;
    sum += metric(pooled[i], pooled[j], marginals);
  }
  return sum / SAMPLED_PAIRS;
}

/** mulberry32: a small deterministic generator in [0, 1). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Share of agreeing pairs of values within units (units with at least two values), or null when there are none. */
export function pairwiseAgreement(units: readonly (readonly number[])[]): number | null {
  let pairs = 0;
  let agreeing = 0;
  for (const unit of units) {
    const m = unit.length;
    for (let i = 0; i < m; i++) {
      for (let j = i + 1; j < m; j++) {
        pairs += 1;
        if (unit[i] === unit[j]) agreeing += 1;
      }
    }
  }
  return pairs === 0 ? null : agreeing / pairs;
}
