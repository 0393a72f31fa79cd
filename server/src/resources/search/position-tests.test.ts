import { describe, expect, it } from 'vitest';
import type { RecordFilter } from '../../storage/repositories/search.repository.js';
import type { MetadataColumns } from '../../storage/search/metadata-columns.js';
import { seededRandom } from '../../../test/seeded-random.js';
import { filterTest, passes, passingCandidates, passingPage, passingPositions } from './position-tests.js';

const COUNT = 5_000;
const random = seededRandom(11);
const words = ['red', 'green', 'blue', 'grey'];
const numbers = Float64Array.from({ length: COUNT }, () => (random() < 0.1 ? NaN : Math.floor(random() * 100)));
const codes = Int32Array.from({ length: COUNT }, () => (random() < 0.1 ? -1 : Math.floor(random() * words.length)));
const columns: MetadataColumns = {
  rids: Float64Array.from({ length: COUNT }, (_, i) => i * 3 + 1),
  columns: new Map([
    ['n', { kind: 'number', values: numbers }],
    ['colour', { kind: 'text', values: codes, codes: new Map(words.map((word, code) => [JSON.stringify(word), code])) }],
    ['mixed', { kind: 'other' }],
  ]),
};

const range = (ge?: number | string, le?: number): RecordFilter => ({ on: 'metadata', name: 'n', match: { kind: 'range', ge, le } }) as RecordFilter;
const terms = (...values: string[]): RecordFilter => ({ on: 'metadata', name: 'colour', match: { kind: 'terms', values: values.map((v) => JSON.stringify(v)) } }) as RecordFilter;
const testsOf = (...filters: RecordFilter[]) => filters.map((filter) => filterTest(filter, columns)!);

/** The SQL filters' meaning, straight from the raw values: what every check must agree with. */
function holds(filter: RecordFilter, p: number): boolean {
  const match = (filter as { match: { kind: string; ge?: number; le?: number; values?: string[] } }).match;
  if (match.kind === 'range') return (match.ge === undefined && match.le === undefined) || (numbers[p] >= (match.ge ?? -Infinity) && numbers[p] <= (match.le ?? Infinity));
  return codes[p] >= 0 && match.values!.includes(JSON.stringify(words[codes[p]]));
}
const everyPosition = Array.from({ length: COUNT }, (_, p) => p);
const expectedOf = (filters: RecordFilter[]) => everyPosition.filter((p) => filters.every((filter) => holds(filter, p)));

describe('position tests on the metadata columns', () => {
  it('check ranges (missing values fail) and terms (unknown terms match nothing) record by record', () => {
    const [between] = testsOf(range(10, 20));
    const missing = numbers.findIndex(Number.isNaN);
    expect(between.at(missing)).toBe(false);
    expect(between.at(numbers.findIndex((v) => v === 15))).toBe(true);
    expect(between.at(numbers.findIndex((v) => v === 21))).toBe(false);
    const [colours] = testsOf(terms('red', 'nope'));
    expect(colours.at(codes.indexOf(0))).toBe(true);
    expect(colours.at(codes.indexOf(1))).toBe(false);
    expect(colours.at(codes.indexOf(-1))).toBe(false);
    expect(everyPosition.filter((p) => colours.at(p))).toEqual(expectedOf([terms('red')]));
  });

  it('leave to SQL what they cannot answer exactly', () => {
    expect(filterTest(range('a', 5), columns)).toBeUndefined();
    expect(filterTest({ on: 'metadata', name: 'mixed', match: { kind: 'range', ge: 1 } } as RecordFilter, columns)).toBeUndefined();
    expect(filterTest({ ...terms('red'), listValues: true } as RecordFilter, columns)).toBeUndefined();
  });

  const cases: [string, RecordFilter[], 'some' | 'all' | 'none'][] = [
    ['one range', [range(10, 40)], 'some'],
    ['a lower bound only', [range(90)], 'some'],
    ['no bound (every record, missing values too)', [range()], 'all'],
    ['terms', [terms('blue', 'grey')], 'some'],
    ['range and terms', [range(0, 49), terms('red')], 'some'],
    ['nothing passes', [range(200, 300)], 'none'],
  ];
  it.each(cases)('scan every record as the record-by-record check does: %s', (_name, filters, passing) => {
    const tests = testsOf(...filters);
    const want = expectedOf(filters);
    expect(everyPosition.filter((p) => passes(tests, p))).toEqual(want);
    expect(want.length === 0 ? 'none' : want.length === COUNT ? 'all' : 'some').toBe(passing);
    expect(Array.from(passingPositions(COUNT, tests))).toEqual(want);
    expect(Array.from(passingCandidates(Int32Array.from({ length: COUNT }, (_, p) => p), tests))).toEqual(want);
    for (const [offset, limit] of [[0, 50], [37, 10], [want.length - 3, 10], [want.length + 5, 10]]) {
      expect(passingPage(COUNT, tests, Math.max(0, offset), limit)).toEqual({ positions: want.slice(Math.max(0, offset), Math.max(0, offset) + limit), total: want.length });
    }
  });

  it('a scan after a wider one is not affected by the scratch mask it reused', () => {
    expect(passingPage(COUNT, testsOf(range()), 0, 1).total).toBe(COUNT);
    const firstHundred = expectedOf([range(10, 40)]).filter((p) => p < 100);
    expect(passingPage(100, testsOf(range(10, 40)), 0, 100)).toEqual({ positions: firstHundred, total: firstHundred.length });
    expect(passingPage(COUNT, testsOf(range()), 0, 1).total).toBe(COUNT);
  });
});
