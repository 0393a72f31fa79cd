import type { RecordFilter } from '../../storage/repositories/search.repository.js';
import type { MetadataColumns } from '../../storage/search/metadata-columns.js';

/**
 * A metadata filter checked against the in-memory columns (storage/search/metadata-columns.ts):
 * position by position for a few candidates, or over every record at once. The second is a tight
 * loop over one typed array per filter; a closure call per record and filter cost more than the
 * comparison itself at a million records.
 */
export interface PositionTest {
  /** Whether the record at `position` passes. */
  at(position: number): boolean;
  /** Clears `mask[p]` for every position p (below mask.length) whose record fails. */
  narrow(mask: Uint8Array): void;
}

const passAll: PositionTest = { at: () => true, narrow: () => {} };

/** The same test as the SQL filter, for the column shapes whose semantics match exactly; else undefined. */
export function filterTest(filter: RecordFilter, columns: MetadataColumns): PositionTest | undefined {
  if (filter.on !== 'metadata' || filter.listValues) return undefined;
  const column = columns.columns.get(filter.name);
  if (column === undefined) return undefined;
  const match = filter.match;
  if (match.kind === 'range' && column.kind === 'number') {
    // A text bound compares across types (SQLite puts numbers below text, jsonb the other way round).
    if ((match.ge !== undefined && typeof match.ge !== 'number') || (match.le !== undefined && typeof match.le !== 'number')) return undefined;
    if (match.ge === undefined && match.le === undefined) return passAll; // SQL: no bound, no condition
    return rangeTest(column.values, match.ge ?? -Infinity, match.le ?? Infinity);
  }
  if (match.kind === 'terms' && column.kind === 'text') {
    const codes = match.values.map((term) => column.codes.get(term)).filter((code) => code !== undefined);
    return codesTest(column.values, codes, column.codes.size);
  }
  return undefined;
}

/** NaN (a missing value) fails both bounds. */
function rangeTest(values: Float64Array, ge: number, le: number): PositionTest {
  return {
    at: (position) => values[position] >= ge && values[position] <= le,
    narrow(mask) {
      // Branch-free: at ~10% passing, a branch per record mispredicts often enough to cost 2-3x.
      for (let p = 0; p < mask.length; p++) mask[p] &= Number(values[p] >= ge) & Number(values[p] <= le);
    },
  };
}

/** `values` holds codes 0..codeCount-1, or -1 where the value is missing. */
function codesTest(values: Int32Array, wanted: number[], codeCount: number): PositionTest {
  // Indexed by code + 1, so a missing value (-1) reads slot 0, never wanted.
  const isWanted = new Uint8Array(codeCount + 1);
  for (const code of wanted) isWanted[code + 1] = 1;
  return {
    at: (position) => isWanted[values[position] + 1] === 1,
    narrow(mask) {
      for (let p = 0; p < mask.length; p++) mask[p] &= isWanted[values[p] + 1];
    },
  };
}

export function passes(tests: PositionTest[], position: number): boolean {
  for (let i = 0; i < tests.length; i++) if (!tests[i].at(position)) return false;
  return true;
}

/** The candidates (ascending positions) that pass every test, in place. */
export function passingCandidates(candidates: Int32Array, tests: PositionTest[]): Int32Array {
  let found = 0;
  for (let i = 0; i < candidates.length; i++) {
    if (passes(tests, candidates[i])) candidates[found++] = candidates[i];
  }
  return candidates.subarray(0, found);
}

/** Every position below `count` that passes every test, ascending. */
export function passingPositions(count: number, tests: PositionTest[]): Int32Array {
  const mask = passingMask(count, tests);
  // One slot more than the matches: each position is written, and kept when it passes.
  const positions = new Int32Array(countOnes(mask) + 1);
  let found = 0;
  for (let p = 0; p < count; p++) {
    positions[found] = p;
    found += mask[p];
  }
  return positions.subarray(0, found);
}

/**
 * How many positions below `count` pass every test, and the passing ones from the `offset`th on
 * (at most `limit`), ascending: a filtered page in record order without listing every match.
 */
export function passingPage(count: number, tests: PositionTest[], offset: number, limit: number): { positions: number[]; total: number } {
  const mask = passingMask(count, tests);
  const positions: number[] = [];
  let seen = 0;
  for (let p = 0; p < count && positions.length < limit; p++) {
    if (mask[p] === 0) continue;
    if (seen++ >= offset) positions.push(p);
  }
  return { positions, total: countOnes(mask) };
}

function countOnes(mask: Uint8Array): number {
  let ones = 0;
  for (let p = 0; p < mask.length; p++) ones += mask[p];
  return ones;
}

/** Reused across searches (they run one at a time on the event loop): a million records, 1 MB. */
let scratch = new Uint8Array(0);

/** 1 where every test passes, for positions below `count`; valid until the next call. */
function passingMask(count: number, tests: PositionTest[]): Uint8Array {
  if (scratch.length < count) scratch = new Uint8Array(count);
  const mask = scratch.subarray(0, count);
  mask.fill(1);
  for (const test of tests) test.narrow(mask);
  return mask;
}
