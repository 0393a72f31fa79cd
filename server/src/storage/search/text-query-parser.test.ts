import { describe, expect, it } from 'vitest';
import { parseTextQuery, type TextQueryNode } from './text-query-parser.js';
import { textAnalyzer } from './text-match.js';

const parse = (q: string) => parseTextQuery(q, textAnalyzer);
const w = (word: string): TextQueryNode => ({ kind: 'word', word });
const and = (...children: TextQueryNode[]): TextQueryNode => ({ kind: 'and', children });
const or = (...children: TextQueryNode[]): TextQueryNode => ({ kind: 'or', children });
const not = (child: TextQueryNode): TextQueryNode => ({ kind: 'not', child });

describe('text query parser (simple_query_string syntax)', () => {
  it('joins terms with AND by default, `+` AND, `|` OR, left to right without precedence', () => {
    expect(parse('a b')).toEqual(and(w('a'), w('b')));
    expect(parse('a + b')).toEqual(and(w('a'), w('b')));
    expect(parse('a+b')).toEqual(and(w('a'), w('b')));
    expect(parse('a | b | c')).toEqual(or(w('a'), w('b'), w('c')));
    expect(parse('a b | c')).toEqual(or(and(w('a'), w('b')), w('c')));
    expect(parse('a | b c')).toEqual(and(or(w('a'), w('b')), w('c')));
  });

  it('negates with `-` (twice is no negation; a space after it drops it)', () => {
    expect(parse('a -b')).toEqual(and(w('a'), not(w('b'))));
    expect(parse('-a')).toEqual(not(w('a')));
    expect(parse('--a')).toEqual(w('a'));
    expect(parse('- a')).toEqual(w('a'));
    expect(parse('a-b')).toEqual(and(w('a'), w('b')));
    expect(parse('-(a | b)')).toEqual(not(or(w('a'), w('b'))));
  });

  it('groups with parentheses; unclosed or empty ones are ignored', () => {
    expect(parse('(a | b) c')).toEqual(and(or(w('a'), w('b')), w('c')));
    expect(parse('a (b | (c d))')).toEqual(and(w('a'), or(w('b'), and(w('c'), w('d')))));
    expect(parse('a (')).toEqual(w('a'));
    expect(parse('(a b')).toEqual(and(w('a'), w('b')));
    expect(parse('a ) b')).toEqual(and(w('a'), w('b')));
    expect(parse('a | () b')).toEqual(and(w('a'), w('b')));
  });

  it('reads phrases with optional slop; a lone or empty quote is ignored', () => {
    expect(parse('"Quick brown"')).toEqual({ kind: 'phrase', words: ['quick', 'brown'], slop: 0 });
    expect(parse('"quick brown"~3')).toEqual({ kind: 'phrase', words: ['quick', 'brown'], slop: 3 });
    expect(parse('"quick brown"~ x')).toEqual(and({ kind: 'phrase', words: ['quick', 'brown'], slop: 2 }, w('x')));
    expect(parse('"quick brown"~x')).toEqual({ kind: 'phrase', words: ['quick', 'brown'], slop: 0 });
    expect(parse('"one"')).toEqual(w('one'));
    expect(parse('"quick brown')).toEqual(and(w('quick'), w('brown')));
    expect(parse('"" a')).toEqual(w('a'));
    expect(parse('"!!!" a')).toEqual(w('a'));
  });

  it('reads prefixes and fuzzy terms, lower-cased but not cut into words', () => {
    expect(parse('Arg*')).toEqual({ kind: 'prefix', prefix: 'arg' });
    expect(parse('my_t*')).toEqual({ kind: 'prefix', prefix: 'my_t' });
    expect(parse('foo-ba*')).toEqual({ kind: 'prefix', prefix: 'foo-ba' });
    expect(parse('*')).toEqual({ kind: 'all' });
    expect(parse('Argilla~1')).toEqual({ kind: 'fuzzy', word: 'argilla', distance: 1 });
    expect(parse('argilla~')).toEqual({ kind: 'fuzzy', word: 'argilla', distance: 2 });
    expect(parse('argilla~7')).toEqual({ kind: 'fuzzy', word: 'argilla', distance: 2 });
    expect(parse('argilla~0')).toEqual(w('argilla'));
    expect(parse('argilla~x')).toEqual(w('argilla'));
    expect(parse('argilla~-1')).toEqual(w('argilla'));
    expect(parse('argilla~99999999999')).toEqual(w('argilla'));
  });

  it('takes an escaped character as text', () => {
    expect(parse('\\-a')).toEqual(w('a'));
    expect(parse('a\\|b')).toEqual(and(w('a'), w('b')));
    expect(parse('\\"quick brown\\"')).toEqual(and(w('quick'), w('brown')));
    expect(parse('arg\\*')).toEqual(w('arg'));
    expect(parse('a\\')).toEqual(w('a'));
  });

  it('cuts terms into the index words, drops terms without words, and never fails', () => {
    expect(parse("my_term can't 3.14")).toEqual(and(w('my_term'), w("can't"), w('3.14')));
    expect(parse('!!! a')).toEqual(w('a'));
    expect(parse('')).toBeUndefined();
    expect(parse('-')).toBeUndefined();
    expect(parse('| + ( ) " ~')).toBeUndefined();
    for (const q of ['((((', '))))', '"""', '~~~', 'a~~1', '-"-"-', '*a*', '\\\\\\', '(a | "b c"~ -d*) e~1 +']) expect(() => parse(q)).not.toThrow();
  });
});
