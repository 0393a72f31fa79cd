/**
 * The words of a text search to mark in the record, without the search syntax around them
 * (`+`, `-`, `|`, quotes, `~N`, `*`, parentheses, escapes); a word to exclude (`-word`) is not
 * marked. Case is ignored when marking.
 */
export function searchTerms(q: string): string[] {
  const terms = new Set<string>();
  for (const token of q.split(/\s+/)) {
    if (!token || token.startsWith('-')) continue;
    const word = token.replace(/\\(.)/g, '$1').replace(/~\d*$/, '').replace(/[+|"()*~]/g, '').trim();
    if (word.length >= 2) terms.add(word.toLowerCase());
  }
  return [...terms];
}

/** The words of a text search and the one field it searched, if it named one. */
export interface SearchMarks {
  terms: readonly string[];
  field: string;
}

const NONE: readonly string[] = [];

/** The words to mark in a field: all of them unless the search named another field. */
export function termsIn(search: SearchMarks | undefined, fieldName: string): readonly string[] {
  return search && (!search.field || search.field === fieldName) ? search.terms : NONE;
}
