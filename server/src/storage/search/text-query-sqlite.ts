import type { MatchNode, TextMatch } from './text-match.js';

/**
 * A TextMatch as an FTS5 MATCH expression over the dataset's index (text-index.ts). Words are
 * quoted FTS5 strings, so no user text is ever FTS5 syntax. Every leaf names the field columns
 * it may match; the index's `u` column holds one word in every row, the set of all records that
 * a negation starts from (FTS5's NOT only subtracts: `-a` is `u NOT a`).
 * - a sloppy phrase is NEAR over its words: FTS5 counts the words between the first and the
 *   last, so slop N over k words is NEAR(…, N + k − 2): the words in a window of N + k
 *   positions, in any order.
 */
export function compileSqliteMatch(match: TextMatch): string {
  const scope = match.column ?? `{${match.columns.join(' ')}}`;
  return compile(match.query, `${scope} : `);
}

const EVERY_RECORD = 'u : "_"';

function compile(node: MatchNode, scope: string): string {
  switch (node.kind) {
    case 'word':
      return `${scope}${quoted(node.word)}`;
    case 'prefix':
      return `${scope}${quoted(node.prefix)} *`;
    case 'phrase':
      if (node.slop === 0) return `${scope}${quoted(node.words.join(' '))}`;
      return `${scope}NEAR(${node.words.map(quoted).join(' ')}, ${node.slop + node.words.length - 2})`;
    case 'all':
      return EVERY_RECORD;
    case 'not':
      return `(${EVERY_RECORD} NOT ${compile(node.child, scope)})`;
    case 'or':
      return `(${node.children.map((child) => compile(child, scope)).join(' OR ')})`;
    case 'and': {
      const positives = node.children.filter((child) => child.kind !== 'not');
      const negatives = node.children.filter((child): child is Extract<MatchNode, { kind: 'not' }> => child.kind === 'not');
      const kept = positives.length === 0 ? EVERY_RECORD : `(${positives.map((child) => compile(child, scope)).join(' AND ')})`;
      return negatives.length === 0 ? kept : `(${[kept, ...negatives.map((child) => compile(child.child, scope))].join(' NOT ')})`;
    }
  }
}

function quoted(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}
