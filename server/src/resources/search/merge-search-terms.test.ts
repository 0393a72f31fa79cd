import { describe, expect, it } from 'vitest';
import type { RecordFilter, SortKey } from '../../storage/repositories/search.repository.js';
import { mergeFilters, mergeSort } from './merge-search-terms.js';

const metadataRange = (name: string, ge?: number | string, le?: number | string): RecordFilter => ({ on: 'metadata', name, match: { kind: 'range', ge, le }, listValues: false });

describe('merging a search body’s repeats', () => {
  it('folds ranges over one numeric property into their intersection and drops exact duplicates', () => {
    const merged = mergeFilters([metadataRange('n', 0, 900), metadataRange('n', 100), metadataRange('n', undefined, 200), metadataRange('score', 0, 1), metadataRange('score', 0, 1)], new Set(['n', 'score']));
    expect(merged).toEqual([metadataRange('n', 100, 200), metadataRange('score', 0, 1)]);
  });

  it('keeps every range over values that may be lists, and ranges whose bounds do not compare', () => {
    const terms = [metadataRange('group', 'a', 'c'), metadataRange('group', 'b', 'd')];
    expect(mergeFilters(terms, new Set(['n']))).toEqual(terms);
    const responses: RecordFilter[] = [
      { on: 'response-value', questionName: 'rating', match: { kind: 'range', ge: 1, le: 2 } },
      { on: 'response-value', questionName: 'rating', match: { kind: 'range', ge: 4, le: 5 } },
    ];
    expect(mergeFilters(responses, new Set())).toEqual(responses);
    const mixed = [metadataRange('n', 1, 5), metadataRange('n', '2', '9')];
    expect(mergeFilters(mixed, new Set(['n']))).toEqual(mixed);
  });

  it('leaves the filters it was given unchanged', () => {
    const first = metadataRange('n', 0, 10);
    mergeFilters([first, metadataRange('n', 5, 20)], new Set(['n']));
    expect(first).toEqual(metadataRange('n', 0, 10));
  });

  it('keeps the first sort key on each value, whatever the later ones’ order', () => {
    const byScore = (order: 'asc' | 'desc'): SortKey => ({ on: 'metadata', name: 'score', order });
    const byStatus: SortKey = { on: 'record', column: 'status', order: 'asc' };
    expect(mergeSort([byScore('desc'), byStatus, byScore('asc'), byScore('desc')])).toEqual([byScore('desc'), byStatus]);
  });
});
