import { sql, type RawBuilder } from 'kysely';
import { quotedLexeme } from './text-index.js';
import type { MatchNode, TextMatch } from './text-match.js';

/**
 * A TextMatch as a PostgreSQL condition over the dataset's tsvector table `t` (text-index.ts),
 * and the tsquery that ranks its hits. Words reach PostgreSQL as tsquery input (quoted lexemes),
 * never through a text parser, so they stay the index's words. A sloppy phrase is tested field
 * by field with `scholia_words_near` (the words in a window of slop + words positions, any
 * order: FTS5's NEAR), after the tsquery of its words narrows the rows through `doc`'s index.
 */
export interface PostgresTextQuery {
  condition: RawBuilder<unknown>;
  /** The tsquery of every word the query looks for (ts_rank); undefined when it looks for none. */
  rank?: string;
}

type Compiled = { tsquery: string } | { condition: RawBuilder<unknown> };

export function compilePostgresMatch(match: TextMatch): PostgresTextQuery {
  const scope: Scope = {
    document: match.column ? `t.${match.column}` : 't.doc',
    fields: match.column ? [`t.${match.column}`] : match.columns.map((column) => `t.${column}`),
    // A field may be NULL in a record: a negation must still match there.
    nullable: match.column !== undefined && hasNegation(match.query),
  };
  const compiled = compile(match.query, scope);
  const positives = positiveWords(match.query);
  const condition = conditionOf(compiled, scope);
  // Only `doc` has an index (text-index.ts): a search in one field first takes the records whose
  // `doc` holds what any match in that field must hold.
  const required = match.column ? requiredTsquery(match.query) : undefined;
  return {
    condition: required === undefined ? condition : sql`(t.doc @@ ${required}::tsquery AND ${condition})`,
    rank: positives.length === 0 ? undefined : positives.join(' | '),
  };
}

/**
 * A tsquery that `doc` matches whenever one field matches `node`, or undefined when there is none
 * (a negation can hold in a field and not in `doc`). Phrases become their words: `doc` holds a
 * field's words at shifted positions, which may pass the last position PostgreSQL keeps.
 */
function requiredTsquery(node: MatchNode): string | undefined {
  switch (node.kind) {
    case 'word':
      return quotedLexeme(node.word);
    case 'prefix':
      return `${quotedLexeme(node.prefix)}:*`;
    case 'phrase':
      return `(${node.words.map(quotedLexeme).join(' & ')})`;
    case 'all':
    case 'not':
      return undefined;
    case 'and': {
      const parts = node.children.map(requiredTsquery).filter((part): part is string => part !== undefined);
      return parts.length === 0 ? undefined : `(${parts.join(' & ')})`;
    }
    case 'or': {
      const parts = node.children.map(requiredTsquery);
      return parts.some((part) => part === undefined) ? undefined : `(${parts.join(' | ')})`;
    }
  }
}

interface Scope {
  document: string;
  fields: string[];
  nullable: boolean;
}

function compile(node: MatchNode, scope: Scope): Compiled {
  switch (node.kind) {
    case 'word':
      return { tsquery: quotedLexeme(node.word) };
    case 'prefix':
      return { tsquery: `${quotedLexeme(node.prefix)}:*` };
    case 'phrase': {
      if (node.slop === 0) return { tsquery: `(${node.words.map(quotedLexeme).join(' <-> ')})` };
      const words = sql`ARRAY[${sql.join(node.words)}]::text[]`;
      const window = node.slop + node.words.length - 1;
      const all = node.words.map(quotedLexeme).join(' & ');
      const perField = scope.fields.map((field) => sql`(${sql.raw(field)} @@ ${all}::tsquery AND scholia_words_near(${sql.raw(field)}, ${words}, ${window}))`);
      return { condition: sql`(t.doc @@ ${all}::tsquery AND (${sql.join(perField, sql` OR `)}))` };
    }
    case 'all':
      return { condition: sql`TRUE` };
    case 'not': {
      const child = compile(node.child, scope);
      return 'tsquery' in child ? { tsquery: `!${child.tsquery}` } : { condition: sql`NOT coalesce(${child.condition}, FALSE)` };
    }
    case 'and':
    case 'or': {
      const children = node.children.map((child) => compile(child, scope));
      const operator = node.kind === 'and' ? ' & ' : ' | ';
      if (children.every((child) => 'tsquery' in child)) return { tsquery: `(${children.map((child) => (child as { tsquery: string }).tsquery).join(operator)})` };
      const conditions = children.map((child) => conditionOf(child, scope));
      return { condition: sql`(${sql.join(conditions, node.kind === 'and' ? sql` AND ` : sql` OR `)})` };
    }
  }
}

function conditionOf(compiled: Compiled, scope: Scope): RawBuilder<unknown> {
  if (!('tsquery' in compiled)) return compiled.condition;
  const document = scope.nullable ? `coalesce(${scope.document}, ''::tsvector)` : scope.document;
  return sql`${sql.raw(document)} @@ ${compiled.tsquery}::tsquery`;
}


function hasNegation(node: MatchNode): boolean {
  if (node.kind === 'not') return true;
  return (node.kind === 'and' || node.kind === 'or') && node.children.some(hasNegation);
}

/** The operands of the query outside negations, as tsquery terms (phrases as their words). */
function positiveWords(node: MatchNode): string[] {
  switch (node.kind) {
    case 'word':
      return [quotedLexeme(node.word)];
    case 'prefix':
      return [`${quotedLexeme(node.prefix)}:*`];
    case 'phrase':
      return node.words.map(quotedLexeme);
    case 'and':
    case 'or':
      return node.children.flatMap(positiveWords);
    default:
      return [];
  }
}
