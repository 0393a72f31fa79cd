import { describe, expect, it } from 'vitest';
import { isUuid, newId } from './ids.js';

describe('newId', () => {
  it('makes version-7 UUIDs that sort in creation order', () => {
    const ids = Array.from({ length: 2_000 }, () => newId());
    for (const id of ids) {
      expect(isUuid(id)).toBe(true);
      expect(id[14]).toBe('7');
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
