import { describe, expect, it } from 'vitest';
import { buildTextMatch, parseTextMatch, textQueryTerms } from './text-index.js';

describe('text query terms', () => {
  it('merges repeated terms, whatever their case or accents, keeping the first form', () => {
    expect(textQueryTerms('the The THE thé the')).toEqual(['the']);
    expect(textQueryTerms('Café cafe of the of')).toEqual(['Café', 'of', 'the']);
    expect(buildTextMatch(Array.from({ length: 400 }, () => 'the').join(' '))).toBe('"the"');
  });

  it('keeps distinct terms in first-seen order, and the column of a field search', () => {
    expect(buildTextMatch('b a b c a', 'c1')).toBe('c1 : ("b" "a" "c")');
    expect(parseTextMatch(buildTextMatch('x y x z y')!).terms).toEqual(['x', 'y', 'z']);
  });

  it('turns query syntax into plain words and finds nothing in text without tokens', () => {
    expect(textQueryTerms('th* "of" NEAR(the and) text:the OR')).toEqual(['th', 'of', 'NEAR', 'the', 'and', 'text', 'OR']);
    expect(buildTextMatch(' *** "" ')).toBeUndefined();
  });
});
