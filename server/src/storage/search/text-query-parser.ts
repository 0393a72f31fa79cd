/**
 * The reference engine's text query syntax (Elasticsearch's `simple_query_string`, default
 * operator AND), read into a tree of words. Read exactly as that parser reads it, so malformed
 * input never fails: an unclosed `"` or `(` is ignored, a lone operator is skipped, a `~` without
 * a number means 2 (fuzziness) and with something else than a number means nothing.
 *
 * - `a b`, `a + b`: both; `a | b`: either; `-a`: every record without `a`. Operators apply left
 *   to right without precedence: `a b | c` is `(a b) | c`, `a | b c` is `(a | b) c`.
 * - `"a b"`: the words next to each other, in order; `"a b"~N`: within N extra positions.
 * - `ab*`: words starting with `ab`; `ab~N`: words within N edits (at most 2) of `ab`.
 * - `( )` group; `\` makes the next character plain text; `*` alone is every record.
 *
 * Words come from `words` (the index's tokenizer): a plain term with several words needs them
 * all, and a term or phrase without words drops out of the query. Prefix and fuzzy terms are only
 * lower-cased (`normalize`), as the reference does. Pure: no database, no I/O.
 */
export type TextQueryNode =
  | { kind: 'word'; word: string }
  | { kind: 'prefix'; prefix: string }
  | { kind: 'fuzzy'; word: string; distance: number }
  /** `slop` 0: adjacent, in order. */
  | { kind: 'phrase'; words: string[]; slop: number }
  | { kind: 'and'; children: TextQueryNode[] }
  | { kind: 'or'; children: TextQueryNode[] }
  | { kind: 'not'; child: TextQueryNode }
  | { kind: 'all' };

export interface TextAnalyzer {
  words(text: string): string[];
  normalize(text: string): string;
}

/** The largest fuzziness the reference accepts; more is taken as this. */
export const MAX_FUZZY_DISTANCE = 2;

type Operator = 'and' | 'or';

interface State {
  top: TextQueryNode | undefined;
  current: Operator | undefined;
  previous: Operator | undefined;
  not: number;
}

/** The query's tree, or undefined when it has no words (it matches nothing). */
export function parseTextQuery(query: string, analyzer: TextAnalyzer): TextQueryNode | undefined {
  if (query.trim() === '*') return { kind: 'all' };
  return new Parser(query, analyzer).parse(0, query.length);
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

function endsToken(character: string): boolean {
  return character === '"' || character === '|' || character === '+' || character === '(' || character === ')' || WHITESPACE.has(character);
}

class Parser {
  private index = 0;

  constructor(
    private readonly data: string,
    private readonly analyzer: TextAnalyzer,
  ) {}

  parse(start: number, end: number): TextQueryNode | undefined {
    const state: State = { top: undefined, current: undefined, previous: undefined, not: 0 };
    this.index = start;
    while (this.index < end) {
      const character = this.data[this.index];
      if (character === '(') this.subQuery(state, end);
      else if (character === ')') this.index += 1;
      else if (character === '"') this.phrase(state, end);
      else if (character === '+' || character === '|') {
        if (state.current === undefined && state.top !== undefined) state.current = character === '+' ? 'and' : 'or';
        this.index += 1;
      } else if (character === '-') {
        state.not += 1;
        this.index += 1;
        continue;
      } else if (WHITESPACE.has(character)) this.index += 1;
      else this.token(state, end);
      state.not = 0;
    }
    return state.top;
  }

  private subQuery(state: State, end: number) {
    const start = ++this.index;
    let depth = 1;
    let escaped = false;
    while (this.index < end) {
      const character = this.data[this.index];
      if (!escaped) {
        if (character === '\\') {
          escaped = true;
          this.index += 1;
          continue;
        }
        if (character === '(') depth += 1;
        else if (character === ')' && --depth === 0) break;
      }
      escaped = false;
      this.index += 1;
    }
    if (this.index === end) {
      this.index = start; // never closed: the `(` is plain noise
    } else if (this.index === start) {
      state.current = undefined; // `()`: the pending operator had nothing to apply to
      this.index += 1;
    } else {
      const close = this.index;
      const inner = new Parser(this.data, this.analyzer).parse(start, close);
      this.add(state, inner);
      this.index = close + 1;
    }
  }

  private phrase(state: State, end: number) {
    const start = ++this.index;
    let text = '';
    let escaped = false;
    let hasSlop = false;
    while (this.index < end) {
      const character = this.data[this.index];
      if (!escaped) {
        if (character === '\\') {
          escaped = true;
          this.index += 1;
          continue;
        }
        if (character === '"') {
          if (end > this.index + 1 && this.data[this.index + 1] === '~') {
            this.index += 1;
            if (end > this.index + 1) hasSlop = true;
          }
          break;
        }
      }
      escaped = false;
      text += character;
      this.index += 1;
    }
    if (this.index === end) {
      this.index = start; // never closed
    } else if (this.index === start) {
      state.current = undefined; // `""`
      this.index += 1;
    } else {
      const slop = hasSlop ? this.number(end) : 0;
      const words = this.analyzer.words(text);
      this.add(state, words.length === 0 ? undefined : words.length === 1 ? { kind: 'word', word: words[0] } : { kind: 'phrase', words, slop });
      this.index += 1;
    }
  }

  private token(state: State, end: number) {
    let text = '';
    let escaped = false;
    let prefix = false;
    let fuzzy = false;
    while (this.index < end) {
      const character = this.data[this.index];
      if (!escaped) {
        if (character === '\\') {
          escaped = true;
          prefix = false;
          this.index += 1;
          continue;
        }
        if (endsToken(character)) break;
        if (text.length > 0 && character === '~') {
          fuzzy = true;
          break;
        }
        prefix = text.length > 0 && character === '*';
      }
      escaped = false;
      text += character;
      this.index += 1;
    }
    if (text.length === 0) return;
    if (fuzzy) {
      const distance = Math.min(this.number(end), MAX_FUZZY_DISTANCE);
      this.add(state, distance === 0 ? this.plain(text) : { kind: 'fuzzy', word: this.analyzer.normalize(text), distance });
    } else if (prefix) {
      this.add(state, { kind: 'prefix', prefix: this.analyzer.normalize(text.slice(0, -1)) });
    } else this.add(state, this.plain(text));
  }

  private plain(text: string): TextQueryNode | undefined {
    const words = this.analyzer.words(text);
    if (words.length === 0) return undefined;
    if (words.length === 1) return { kind: 'word', word: words[0] };
    return { kind: 'and', children: words.map((word) => ({ kind: 'word', word })) };
  }

  /**
   * The number after a `~` (the index is on it), up to the end of the token: nothing means 2, a
   * negative or unreadable number means 0. Leaves the index on the character that ends the token.
   */
  private number(end: number): number {
    let text = '';
    while (this.index < end) {
      this.index += 1;
      if (this.index < end) {
        if (endsToken(this.data[this.index])) break;
        text += this.data[this.index];
      }
    }
    if (text === '') return 2;
    if (!/^[+-]?\d{1,10}$/.test(text)) return 0;
    const value = Number(text);
    return value > 2 ** 31 - 1 ? 0 : Math.max(0, value);
  }

  /** A term, phrase or group joins the tree left to right; a change of operator starts a new level. */
  private add(state: State, branch: TextQueryNode | undefined) {
    if (branch === undefined) return;
    const node: TextQueryNode = state.not % 2 === 1 ? { kind: 'not', child: branch } : branch;
    if (state.top === undefined) {
      state.top = node;
    } else {
      const operator = state.current ?? 'and';
      if (state.previous !== operator) state.top = { kind: operator, children: [state.top] };
      (state.top as { children: TextQueryNode[] }).children.push(node);
      state.previous = operator;
    }
    state.current = undefined;
  }
}
