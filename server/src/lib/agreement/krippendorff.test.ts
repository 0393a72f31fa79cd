import { describe, expect, it } from 'vitest';
import { flatUnits, intervalMetric, krippendorffAlpha as alphaOf, nominalMetric, ordinalMetric, pairwiseAgreement as agreementOf, type Metric } from './krippendorff.js';

const krippendorffAlpha = (units: number[][], categories: number, metric: Metric) => alphaOf(flatUnits(units), categories, metric);
const pairwiseAgreement = (units: number[][]) => agreementOf(flatUnits(units));

describe('krippendorffAlpha', () => {
  it('nominal, two coders, by hand: D_o = 2/8, D_e = 2·3·5/(8·7), alpha = 8/15', () => {
    const units = [[0, 0], [0, 1], [1, 1], [1, 1]];
    expect(krippendorffAlpha(units, 2, nominalMetric)).toEqual({ alpha: expect.closeTo(8 / 15, 12), pairable: 8 });
  });

  it('interval, by hand: values 1,2 | 3,3 give D_o = 1/2, D_e = 22/12, alpha = 8/11', () => {
    const values = [1, 2, 3];
    const units = [[0, 1], [2, 2]];
    expect(krippendorffAlpha(units, 3, intervalMetric(values)).alpha).toBeCloseTo(8 / 11, 12);
  });

  it('the worked example of Krippendorff (2011): 4 observers, 12 units, missing values', () => {
    // "Computing Krippendorff's Alpha-Reliability", section C; null = no value; values 1..5 as indices 0..4.
    const observers = [
      [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
      [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
      [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
      [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
    ];
    const units = observers[0].map((_, u) => observers.map((o) => o[u]).filter((v): v is number => v !== null).map((v) => v - 1));
    const nominal = krippendorffAlpha(units, 5, nominalMetric);
    expect(nominal.pairable).toBe(40); // unit 12 has one value only
    expect(nominal.alpha).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(units, 5, ordinalMetric).alpha).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(units, 5, intervalMetric([1, 2, 3, 4, 5])).alpha).toBeCloseTo(0.849, 3);
  });

  it('is 1 for perfect agreement, and undefined without variation or without pairable values', () => {
    expect(krippendorffAlpha([[0, 0], [1, 1, 1]], 2, nominalMetric).alpha).toBe(1);
    expect(krippendorffAlpha([[1, 1], [1, 1]], 2, nominalMetric).alpha).toBeNull();
    expect(krippendorffAlpha([[0], [1]], 2, nominalMetric)).toEqual({ alpha: null, pairable: 0 });
  });

  it('estimates D_e from sampled pairs when there are many distinct values, close to the exact figure', () => {
    // 600 categories on an interval scale: beyond the exact limit.
    const values = Array.from({ length: 600 }, (_, i) => i);
    const units = values.map((v) => [v, (v + 3) % 600]);
    const exactDe = (() => {
      const pooled = units.flat();
      let sum = 0;
      for (let i = 0; i < pooled.length; i++) for (let j = 0; j < pooled.length; j++) if (i !== j) sum += (pooled[i] - pooled[j]) ** 2;
      return sum / (pooled.length * (pooled.length - 1));
    })();
    const exactDo = units.reduce((sum, [a, b]) => sum + 2 * (a - b) ** 2, 0) / 1200;
    const alpha = krippendorffAlpha(units, 600, intervalMetric(values)).alpha!;
    expect(alpha).toBeCloseTo(1 - exactDo / exactDe, 2);
  });
});

describe('pairwiseAgreement', () => {
  it('counts agreeing pairs within units: [0,0,1] has 1 of 3, [2,2] 1 of 1', () => {
    expect(pairwiseAgreement([[0, 0, 1], [2, 2], [1]])).toBe(0.5);
    expect(pairwiseAgreement([[1]])).toBeNull();
  });
});
