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

/** Coded units laid out flat (no array per unit): unit u holds `values[offsets[u]]` up to `values[offsets[u + 1]]`. */
export interface FlatUnits {
  offsets: Int32Array;
  values: Int32Array;
}

/** FlatUnits of one list of category indices per unit. */
export function flatUnits(lists: readonly (readonly number[])[]): FlatUnits {
  const offsets = new Int32Array(lists.length + 1);
  const values = new Int32Array(lists.reduce((sum, list) => sum + list.length, 0));
  let at = 0;
  lists.forEach((list, u) => {
    values.set(list, at);
    at += list.length;
    offsets[u + 1] = at;
  });
  return { offsets, values };
}

/** Below this many categories the coincidences are kept in a dense matrix. */
const DENSE_CATEGORY_LIMIT = 256;

/** Alpha for `units` (each the category indices the coders gave one unit; order irrelevant). */
export function krippendorffAlpha(units: FlatUnits, categoryCount: number, metric: Metric): AlphaResult {
  const { offsets, values } = units;
  const marginals = new Float64Array(categoryCount);
  // Coincidences of distinct categories c < k (equal pairs add no disagreement): dense when few categories.
  const dense = categoryCount <= DENSE_CATEGORY_LIMIT ? new Float64Array(categoryCount * categoryCount) : undefined;
  const sparse = dense ? undefined : new Map<number, number>();
  let pairable = 0;
  for (let u = 0; u + 1 < offsets.length; u++) {
    const from = offsets[u];
    const to = offsets[u + 1];
    const m = to - from;
    if (m < 2) continue;
    pairable += m;
    // Each unordered pair counts twice (c-k and k-c), each weighted 1 / (m - 1).
    const weight = 2 / (m - 1);
    for (let i = from; i < to; i++) {
      marginals[values[i]] += 1;
      for (let j = i + 1; j < to; j++) {
        const c = values[i];
        const k = values[j];
        if (c === k) continue;
        const key = c < k ? c * categoryCount + k : k * categoryCount + c;
        if (dense) dense[key] += weight;
        else sparse!.set(key, (sparse!.get(key) ?? 0) + weight);
      }
    }
  }
  if (pairable < 2) return { alpha: null, pairable };
  let observed = 0;
  const entries: Iterable<[number, number]> = dense ? denseEntries(dense) : sparse!;
  for (const [key, weight] of entries) observed += weight * metric(Math.floor(key / categoryCount), key % categoryCount, marginals);
  observed /= pairable;
  const expected = expectedDisagreement(units, marginals, pairable, metric);
  if (expected === 0) return { alpha: null, pairable };
  return { alpha: 1 - observed / expected, pairable };
}

function* denseEntries(matrix: Float64Array): Iterable<[number, number]> {
  for (let key = 0; key < matrix.length; key++) if (matrix[key] !== 0) yield [key, matrix[key]];
}

/** D_e: the mean distance over ordered pairs of distinct pairable values. */
function expectedDisagreement(units: FlatUnits, marginals: Float64Array, n: number, metric: Metric): number {
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
  for (let u = 0; u + 1 < units.offsets.length; u++) {
    if (units.offsets[u + 1] - units.offsets[u] < 2) continue;
    for (let i = units.offsets[u]; i < units.offsets[u + 1]; i++) pooled.push(units.values[i]);
  }
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

/** Share of agreeing pairs of values within units, or null when there are none. */
export function pairwiseAgreement({ offsets, values }: FlatUnits): number | null {
  let pairs = 0;
  let agreeing = 0;
  for (let u = 0; u + 1 < offsets.length; u++) {
    for (let i = offsets[u]; i < offsets[u + 1]; i++) {
      for (let j = i + 1; j < offsets[u + 1]; j++) {
        pairs += 1;
        if (values[i] === values[j]) agreeing += 1;
      }
    }
  }
  return pairs === 0 ? null : agreeing / pairs;
}
