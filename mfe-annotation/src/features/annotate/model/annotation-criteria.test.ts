import { describe, expect, it } from 'vitest';
import { DEFAULT_CRITERIA, readUrlState, toSearchBody, writeUrlState } from './annotation-criteria.js';

describe('annotation criteria', () => {
  it('adds the record status filter when filtering pending (spec §4)', () => {
    expect(toSearchBody(DEFAULT_CRITERIA).filters?.and).toEqual([
      { type: 'terms', scope: { entity: 'response', property: 'status' }, values: ['pending'] },
      { type: 'terms', scope: { entity: 'record', property: 'status' }, values: ['pending'] },
    ]);
    expect(toSearchBody({ ...DEFAULT_CRITERIA, status: 'draft' }).filters?.and).toHaveLength(1);
  });

  it('round-trips through the URL', () => {
    const criteria = { ...DEFAULT_CRITERIA, status: 'submitted' as const, q: 'café', field: 'text', conditions: [{ kind: 'metadata' as const, name: 'lang', values: ['en'] }], sort: [{ by: 'metadata:len', order: 'desc' as const }] };
    const view = { mode: 'bulk' as const, page: 3, size: 25 };
    const params = writeUrlState(criteria, view);
    expect(readUrlState(new URLSearchParams(params.toString()))).toEqual({ criteria: { ...criteria, similar: undefined }, view });
    expect(toSearchBody(criteria).sort).toEqual([{ scope: { entity: 'metadata', metadata_property: 'len' }, order: 'desc' }]);
  });

  it('searches the words around a pasted NUL character, which the server refuses', () => {
    expect(toSearchBody({ ...DEFAULT_CRITERIA, q: 'good\u0000movie\u0000' }).query?.text).toEqual({ q: 'good movie', field: null });
    expect(toSearchBody({ ...DEFAULT_CRITERIA, q: '\u0000 ' }).query).toBeUndefined();
  });

  it('keeps review mode in the URL', () => {
    const params = writeUrlState(DEFAULT_CRITERIA, { mode: 'review', page: 1, size: 10 });
    expect(params.get('mode')).toBe('review');
    expect(readUrlState(params).view.mode).toBe('review');
  });

  it('keeps the similarity search in the URL', () => {
    const similar = { vector: 'emb', record: 'r1', order: 'least_similar' as const, limit: 100 };
    const params = writeUrlState({ ...DEFAULT_CRITERIA, similar }, { mode: 'focus', page: 1, size: 10 });
    expect(readUrlState(params).criteria.similar).toEqual(similar);
  });

  it('falls back to defaults for a broken or hand-edited URL instead of failing', () => {
    const params = new URLSearchParams({ status: 'nope', page: '-2', size: '7', filters: '5', sort: '{"by":1}', similar: '[1]', mode: 'x' });
    expect(readUrlState(params)).toEqual({ criteria: { ...DEFAULT_CRITERIA, similar: undefined }, view: { mode: 'focus', page: 1, size: 10 } });
    const partly = new URLSearchParams({ filters: JSON.stringify([{ kind: 'metadata', name: 'lang', values: ['en'] }, null, { kind: 'other', name: 'x' }]) });
    expect(readUrlState(partly).criteria.conditions).toEqual([{ kind: 'metadata', name: 'lang', values: ['en'] }]);
    expect(readUrlState(new URLSearchParams({ similar: '{"vector":"emb","record":"r1","limit":3}' })).criteria.similar)
      .toEqual({ vector: 'emb', record: 'r1', order: 'most_similar', limit: 50 });
  });
});
