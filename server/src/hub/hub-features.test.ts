import { describe, expect, it } from 'vitest';
import { castCell, normalizeFeature } from './hub-features.js';

describe('castCell', () => {
  it('drops NUL characters from Hub text, in plain values, class names given as text and struct keys', () => {
    expect(castCell('a\u0000b\u0000', normalizeFeature({ _type: 'Value', dtype: 'string' }))).toBe('ab');
    expect(castCell('pos\u0000', normalizeFeature({ _type: 'ClassLabel', names: ['neg', 'pos'] }))).toBe('pos');
    const struct = normalizeFeature({ 'k\u0000ey': { _type: 'Value', dtype: 'string' }, list: { _type: 'List', feature: { _type: 'Value', dtype: 'string' } } });
    expect(castCell({ 'k\u0000ey': 'v\u0000', list: ['x\u0000y'] }, struct)).toEqual({ key: 'v', list: ['xy'] });
    expect(castCell({ nested: { 'n\u0000': ['\u0000'] } }, undefined)).toEqual({ nested: { n: [''] } });
  });

  it('keeps text without NUL as it is', () => {
    const text = 'Grüße 👋 "quoted" \\u0000 written out';
    expect(castCell(text, undefined)).toBe(text);
  });
});
