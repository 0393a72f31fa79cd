import { describe, expect, it } from 'vitest';
import { distinctQueryTerms, fuzzyCandidates, fuzzyTermsOf, MAX_FUZZY_EXPANSIONS, parseUserTextQuery, resolveTextQuery } from './text-match.js';
import { compileSqliteMatch } from './text-query-sqlite.js';

const resolve = (q: string, expansions: Record<string, string[]> = {}) => resolveTextQuery(parseUserTextQuery(q), new Map(Object.entries(expansions)));
const sqlite = (q: string, expansions: Record<string, string[]> = {}, column?: string) =>
  compileSqliteMatch({ query: resolve(q, expansions)!, column, columns: ['c0', 'c1'] });

describe('text match', () => {
  it('counts distinct terms once, whatever their case or operators', () => {
    expect(distinctQueryTerms(parseUserTextQuery('The the THE | -the "the cat" cat~1 ca*'))).toEqual(['the', 'cat', 'cat~1', 'ca*']);
    expect(fuzzyTermsOf(parseUserTextQuery('a~1 (b | -c~2)'))).toEqual([{ word: 'a', distance: 1 }, { word: 'c', distance: 2 }]);
  });

  it('merges repeats and folds what matches nothing or everything', () => {
    expect(resolve('a a a')).toEqual({ kind: 'word', word: 'a' });
    expect(resolve('a b | a')).toEqual({ kind: 'word', word: 'a' });
    expect(resolve('a (a | b)')).toEqual({ kind: 'word', word: 'a' });
    expect(resolve('zz~1')).toBeUndefined();
    expect(resolve('a zz~1')).toBeUndefined();
    expect(resolve('a | zz~1')).toEqual({ kind: 'word', word: 'a' });
    expect(resolve('a -zz~1')).toEqual({ kind: 'word', word: 'a' });
    expect(resolve('zz~1', { 'zz~1': ['za', 'zz'] })).toEqual({ kind: 'or', children: [{ kind: 'word', word: 'za' }, { kind: 'word', word: 'zz' }] });
    expect(resolve('foo-ba*')).toBeUndefined();
    expect(resolve('"a b a"~2')).toEqual({ kind: 'phrase', words: ['a', 'b'], slop: 2 });
  });

  it('compiles to FTS5 with quoted words over the field columns; negations subtract from the `u` column', () => {
    expect(sqlite('a "b c" d*')).toBe('({c0 c1} : "a" AND {c0 c1} : "b c" AND {c0 c1} : "d" *)');
    expect(sqlite('a | -b')).toBe('({c0 c1} : "a" OR (u : "_" NOT {c0 c1} : "b"))');
    expect(sqlite('-a -b')).toBe('(u : "_" NOT {c0 c1} : "a" NOT {c0 c1} : "b")');
    expect(sqlite('"a b c"~1', {}, 'c1')).toBe('c1 : NEAR("a" "b" "c", 2)');
    expect(sqlite('*')).toBe('u : "_"');
    expect(sqlite('NEAR( AND \\"x\\" c0:y')).toBe('({c0 c1} : "near" AND {c0 c1} : "and" AND {c0 c1} : "x" AND {c0 c1} : "c0" AND {c0 c1} : "y")');
  });

  it('finds the closest words within the distance, swaps counting two edits, at most 10 words', () => {
    const vocabulary = ['argilla', 'argila', 'agrilla', 'argillas', 'xargillax', 'zzz', 'argilia'];
    expect(fuzzyCandidates('argilla', 1, vocabulary)).toEqual(['argilla', 'argila', 'argilia', 'argillas']);
    expect(fuzzyCandidates('argilal', 1, ['argilla'])).toEqual([]);
    expect(fuzzyCandidates('argilal', 2, ['argilla'])).toEqual(['argilla']);
    expect(fuzzyCandidates('argilla', 2, vocabulary)).toContain('xargillax');
    const many = Array.from({ length: 200 }, (_, i) => `w${String(i).padStart(3, '0')}`);
    expect(MAX_FUZZY_EXPANSIONS).toBe(10);
    expect(fuzzyCandidates('w000', 2, many)).toHaveLength(10);
    expect(fuzzyCandidates('w000', 2, many)[0]).toBe('w000');
  });
});
