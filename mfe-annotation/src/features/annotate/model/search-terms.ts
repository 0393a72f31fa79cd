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
