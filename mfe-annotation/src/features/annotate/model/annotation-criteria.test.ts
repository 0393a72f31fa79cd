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
});
