import { describe, expect, it } from 'vitest';
import { decodePostings, intersectPositions, PostingsWriter } from './text-postings.js';
import { seededRandom } from '../../../test/seeded-random.js';

const random = seededRandom(17);

function roundTrip(positions: number[], records: number) {
  const writer = new PostingsWriter();
  for (const position of positions) writer.add(position);
  const { bytes, encoding } = writer.finish(records);
  // Stored after another list, as the builder concatenates them.
  const stored = new Uint8Array(3 + bytes.length);
  stored.set(bytes, 3);
  return { encoding, length: bytes.length, decoded: Array.from(decodePostings(stored, { offset: 3, length: bytes.length, encoding }, positions.length)) };
}

const sample = (records: number, share: number) => Array.from({ length: records }, (_, i) => i).filter(() => random() < share);

describe('postings', () => {
  it.each([
    ['sparse, gaps past one and two varint bytes', [0, 1, 127, 128, 300, 16_511, 16_512, 2_113_664, 2_500_000], 2_500_001],
    ['a list of one', [41], 50],
    ['the last position of a size not a multiple of 8', [0, 3, 1_002], 1_003],
    ['rare terms', sample(200_000, 0.002), 200_000],
    ['frequent terms', sample(20_000, 0.4), 20_000],
    ['every record', Array.from({ length: 1_000 }, (_, i) => i), 1_000],
  ])('%s: decode gives back every position', (_, positions, records) => {
    expect(roundTrip(positions, records).decoded).toEqual(positions);
  });

  it('keeps the smaller encoding: gaps for rare terms, a bitset for frequent ones', () => {
    const rare = roundTrip(sample(100_000, 0.01), 100_000);
    expect(rare).toMatchObject({ encoding: 'gaps' });
    expect(rare.length).toBeLessThan(100_000 / 8);
    expect(roundTrip(sample(100_000, 0.3), 100_000)).toMatchObject({ encoding: 'bitset', length: 100_000 / 8 });
  });

  it('intersects lists in ascending order', () => {
    const lists = [sample(5_000, 0.5), sample(5_000, 0.2), sample(5_000, 0.7)];
    const expected = lists[0].filter((p) => lists[1].includes(p) && lists[2].includes(p));
    expect(expected.length).toBeGreaterThan(50);
    expect(Array.from(intersectPositions(lists.map((list) => Int32Array.from(list))))).toEqual(expected);
    expect(Array.from(intersectPositions([Int32Array.from([1, 4, 9])]))).toEqual([1, 4, 9]);
    expect(Array.from(intersectPositions([Int32Array.from([1, 4, 9]), Int32Array.from([2, 5, 10])]))).toEqual([]);
    expect(Array.from(intersectPositions([Int32Array.from([1, 4, 9]), new Int32Array(0)]))).toEqual([]);
  });
});
