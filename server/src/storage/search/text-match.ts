import { parseTextQuery, type TextQueryNode } from './text-query-parser.js';
import { normalizeWord, textWords } from './text-tokenizer.js';

/**
 * A text query ready for the index: its tree (text-query-parser.ts) with every fuzzy term turned
 * into the dataset's words within its distance, and where to look. Each dialect compiles it
 * (text-query-sqlite.ts, text-query-postgres.ts); both get the same tree, so the same hits.
 */
export interface TextMatch {
  query: MatchNode;
  /** The index column of a field search (`c1`); undefined = every field. */
  column?: string;
  /** Every field's index column, in order. */
  columns: string[];
}

/** The tree without fuzzy terms (they became `or`s of words) and without `all` below the top. */
export type MatchNode =
  | { kind: 'word'; word: string }
  | { kind: 'prefix'; prefix: string }
  | { kind: 'phrase'; words: string[]; slop: number }
  | { kind: 'and'; children: MatchNode[] }
  | { kind: 'or'; children: MatchNode[] }
  | { kind: 'not'; child: MatchNode }
  | { kind: 'all' };

/**
 * Fuzzy terms take at most this many of the dataset's words, the closest first (the reference's
 * `fuzzy_max_expansions`): a short fuzzy term must not become thousands of words.
 */
export const MAX_FUZZY_EXPANSIONS = 10;

export const textAnalyzer = { words: textWords, normalize: normalizeWord };

export function parseUserTextQuery(q: string): TextQueryNode | undefined {
  return parseTextQuery(q, textAnalyzer);
}

/** The distinct words, prefixes and fuzzy terms of a query: the work of the index grows with them. */
export function distinctQueryTerms(node: TextQueryNode | undefined): string[] {
  const terms = new Set<string>();
  const visit = (n: TextQueryNode) => {
    if (n.kind === 'word') terms.add(n.word);
    else if (n.kind === 'prefix') terms.add(`${n.prefix}*`);
    else if (n.kind === 'fuzzy') terms.add(`${n.word}~${n.distance}`);
    else if (n.kind === 'phrase') n.words.forEach((word) => terms.add(word));
    else if (n.kind === 'and' || n.kind === 'or') n.children.forEach(visit);
    else if (n.kind === 'not') visit(n.child);
  };
  if (node) visit(node);
  return [...terms];
}

/** The fuzzy terms of a query (what the dataset's vocabulary must be read for). */
export function fuzzyTermsOf(node: TextQueryNode | undefined): { word: string; distance: number }[] {
  if (!node) return [];
  if (node.kind === 'fuzzy') return [{ word: node.word, distance: node.distance }];
  if (node.kind === 'and' || node.kind === 'or') return node.children.flatMap(fuzzyTermsOf);
  if (node.kind === 'not') return fuzzyTermsOf(node.child);
  return [];
}

/** ASCII that never occurs inside an index word: a prefix holding one matches nothing. */
const NOT_IN_WORDS = /[\x00-\x26\x28-\x2b\x2d\x2f\x3c-\x40\x5b-\x5e\x60\x7b-\x7f]/;

/**
 * The tree to compile, with each fuzzy term replaced by its `expansions` (words of the dataset,
 * keyed `word~distance`); undefined when it can match nothing. Drops what matches nothing and
 * folds `all` so that it stays only at the top: `a | *` is `*`, `a *` is `a`, `-*` is nothing.
 */
export function resolveTextQuery(node: TextQueryNode | undefined, expansions: ReadonlyMap<string, string[]>): MatchNode | undefined {
  if (!node) return undefined;
  switch (node.kind) {
    case 'word':
    case 'all':
      return node;
    case 'phrase':
      return node.slop === 0 ? node : nearOf(node.words, node.slop);
    case 'prefix':
      return NOT_IN_WORDS.test(node.prefix) ? undefined : node;
    case 'fuzzy': {
      const words = expansions.get(`${node.word}~${node.distance}`) ?? [];
      if (words.length === 0) return undefined;
      return words.length === 1 ? { kind: 'word', word: words[0] } : { kind: 'or', children: words.map((word) => ({ kind: 'word', word })) };
    }
    case 'not': {
      const child = resolveTextQuery(node.child, expansions);
      if (child === undefined) return { kind: 'all' };
      if (child.kind === 'all') return undefined;
      return { kind: 'not', child };
    }
    case 'and': {
      const children: MatchNode[] = [];
      for (const child of node.children) {
        const resolved = resolveTextQuery(child, expansions);
        if (resolved === undefined) return undefined;
        if (resolved.kind !== 'all') children.push(resolved);
      }
      return combined('and', children);
    }
    case 'or': {
      const children: MatchNode[] = [];
      for (const child of node.children) {
        const resolved = resolveTextQuery(child, expansions);
        if (resolved?.kind === 'all') return resolved;
        if (resolved !== undefined) children.push(resolved);
      }
      return children.length === 0 ? undefined : combined('or', children);
    }
  }
}

/**
 * An `and` / `or` of children without the repeats that change nothing but cost the index a pass
 * each: nested nodes of the same kind are merged, equal children kept once, and a child that
 * holds a sibling under the other operator dropped (`a (a | b)` is `a`, `a | (a b)` is `a`).
 */
function combined(kind: 'and' | 'or', children: MatchNode[]): MatchNode {
  const flat = children.flatMap((child) => (child.kind === kind ? child.children : [child]));
  const keys = flat.map((child) => JSON.stringify(child));
  const unique = flat.filter((_, i) => keys.indexOf(keys[i]) === i);
  const uniqueKeys = new Set(unique.map((child) => JSON.stringify(child)));
  const other = kind === 'and' ? 'or' : 'and';
  const kept = unique.filter((child) => child.kind !== other || !child.children.some((grandchild) => uniqueKeys.has(JSON.stringify(grandchild))));
  if (kept.length === 0) return { kind: 'all' };
  return kept.length === 1 ? kept[0] : { kind, children: kept };
}

/** How deep a query's operators nest (a word is 1). */
export function matchDepth(node: MatchNode): number {
  if (node.kind === 'not') return 1 + matchDepth(node.child);
  if (node.kind === 'and' || node.kind === 'or') return 1 + Math.max(...node.children.map(matchDepth));
  return 1;
}

/** A sloppy phrase of its distinct words (the window does not count a word twice). */
function nearOf(words: string[], slop: number): MatchNode {
  const distinct = [...new Set(words)];
  if (distinct.length === 1) return { kind: 'word', word: distinct[0] };
  return { kind: 'phrase', words: distinct, slop };
}

/**
 * The words of `vocabulary` within `distance` edits of `word` (insertions, deletions and
 * substitutions, counted in characters), closest first then in code-point order, at most
 * MAX_FUZZY_EXPANSIONS. A swap of two neighbours is two edits: the reference sets
 * `fuzzy_transpositions: false`.
 */
export function fuzzyCandidates(word: string, distance: number, vocabulary: Iterable<string>): string[] {
  const target = [...word];
  const found: { word: string; edits: number }[] = [];
  for (const candidate of vocabulary) {
    const edits = editDistance(target, [...candidate], distance);
    if (edits <= distance) found.push({ word: candidate, edits });
  }
  found.sort((a, b) => a.edits - b.edits || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  return found.slice(0, MAX_FUZZY_EXPANSIONS).map((entry) => entry.word);
}

/** Levenshtein distance, or `limit + 1` once it is known to exceed `limit`. */
function editDistance(a: string[], b: string[], limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(b.length + 1);
    current[0] = i;
    let rowMin = current[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      current[j] = value;
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length];
}

/**
 * Whether a query looks for some word outside a negation; when it does not (`*`, `-a`), every hit
 * is as relevant as the next and they come in record order.
 */
export function looksForWords(node: MatchNode): boolean {
  if (node.kind === 'word' || node.kind === 'prefix' || node.kind === 'phrase') return true;
  return (node.kind === 'and' || node.kind === 'or') && node.children.some(looksForWords);
}

/** The one word a query looks for over every field, if that is all it is (the champion lists answer those). */
export function oneWordOf(match: TextMatch): string | undefined {
  return match.column === undefined && match.query.kind === 'word' ? match.query.word : undefined;
}

/** The words a query needs all of over every field, if that is all it is (postings intersect them). */
export function allWordsOf(match: TextMatch): string[] | undefined {
  if (match.column !== undefined) return undefined;
  if (match.query.kind === 'word') return [match.query.word];
  if (match.query.kind === 'and' && match.query.children.every((child) => child.kind === 'word')) {
    return match.query.children.map((child) => (child as { word: string }).word);
  }
  return undefined;
}
