import type { RecordFilter, SortKey, ValueMatch } from '../../storage/repositories/search.repository.js';

/**
 * A search's filters and sort keys without the repeats that change nothing but cost a pass over
 * every candidate record each: filters are AND-combined and a later sort key on the same value
 * never reorders anything, so 50 filters and 10 sort keys over one property cost as one of each.
 */

type Range = Extract<ValueMatch, { kind: 'range' }>;

/**
 * Drops exact duplicates, and folds range filters over one single-valued value (a record column,
 * an integer or float metadata property) into one range: their intersection. Values that may be
 * lists (terms metadata, suggestions, responses) keep every range: each may match another item.
 */
export function mergeFilters(filters: RecordFilter[], numericMetadata: ReadonlySet<string>): RecordFilter[] {
  const out: RecordFilter[] = [];
  const seen = new Set<string>();
  const rangeOf = new Map<string, Extract<RecordFilter, { on: 'record' | 'metadata' }>>();
  for (const filter of filters) {
    const key = JSON.stringify(filter);
    if (seen.has(key)) continue;
    seen.add(key);
    const scalarKey = filter.on === 'record' ? `record:${filter.column}` : filter.on === 'metadata' && numericMetadata.has(filter.name) ? `metadata:${filter.name}` : undefined;
    if (scalarKey === undefined || (filter.on !== 'record' && filter.on !== 'metadata') || filter.match.kind !== 'range') {
      out.push(filter);
      continue;
    }
    const earlier = rangeOf.get(scalarKey);
    const merged = earlier && earlier.match.kind === 'range' ? intersect(earlier.match, filter.match) : undefined;
    if (earlier && merged) {
      earlier.match = merged;
      continue;
    }
    const copy = { ...filter, match: { ...filter.match } };
    if (!earlier) rangeOf.set(scalarKey, copy);
    out.push(copy);
  }
  return out;
}

/**
 * Two ranges' intersection, or undefined when their bounds are not all numbers or all ASCII text
 * (numbers and text do not compare, and beyond ASCII JavaScript and SQL may order text apart).
 */
function intersect(a: Range, b: Range): Range | undefined {
  const bounds = [a.ge, a.le, b.ge, b.le].filter((v) => v !== undefined);
  const numbers = bounds.every((v) => typeof v === 'number');
  if (!numbers && !bounds.every((v) => typeof v === 'string' && /^[\x00-\x7f]*$/.test(v))) return undefined;
  const ge = a.ge === undefined ? b.ge : b.ge === undefined ? a.ge : a.ge > b.ge ? a.ge : b.ge;
  const le = a.le === undefined ? b.le : b.le === undefined ? a.le : a.le < b.le ? a.le : b.le;
  return { kind: 'range', ge, le };
}

/** Keeps the first sort key on each value: a later one on the same value only compares equals. */
export function mergeSort(sort: SortKey[]): SortKey[] {
  const seen = new Set<string>();
  return sort.filter((key) => {
    const { order: _order, ...value } = key;
    const id = JSON.stringify(value);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
