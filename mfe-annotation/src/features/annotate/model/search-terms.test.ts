import { describe, expect, it } from 'vitest';
import { searchTerms, termsIn } from './search-terms.js';

describe('search terms to mark', () => {
  it('keeps the words of a search, without its syntax and excluded words', () => {
    expect(searchTerms('Lovelace')).toEqual(['lovelace']);
    expect(searchTerms('+cats | "big dogs" -birds')).toEqual(['cats', 'big', 'dogs']);
    expect(searchTerms('prefix* fuzzy~2 (a | bc)')).toEqual(['prefix', 'fuzzy', 'bc']);
    expect(searchTerms('  ')).toEqual([]);
  });

  it('marks the words in every field, or in the one field searched', () => {
    expect(termsIn({ terms: ['cat'], field: '' }, 'text')).toEqual(['cat']);
    expect(termsIn({ terms: ['cat'], field: 'text' }, 'text')).toEqual(['cat']);
    expect(termsIn({ terms: ['cat'], field: 'notes' }, 'text')).toEqual([]);
    expect(termsIn(undefined, 'text')).toEqual([]);
  });
});
