import { useEffect, type RefObject } from 'react';

interface HighlightSet {
  add(range: Range): void;
  delete(range: Range): void;
}

/** The name the stylesheet paints (`::highlight(mfe-ann-search)`). */
export const SEARCH_HIGHLIGHT = 'mfe-ann-search';

let shared: HighlightSet | undefined;
/** One highlight for every field: each adds its ranges and takes them back when it changes. */
function searchHighlight(): HighlightSet | undefined {
  if (shared) return shared;
  const css = (globalThis as { CSS?: { highlights?: Map<string, unknown> } }).CSS;
  const Highlight = (globalThis as { Highlight?: new () => HighlightSet }).Highlight;
  if (!css?.highlights || !Highlight) return undefined;
  shared = new Highlight();
  css.highlights.set(SEARCH_HIGHLIGHT, shared);
  return shared;
}

/** Ranges of each case-insensitive occurrence of the terms in the text under `root`. */
function rangesOf(root: Node, terms: readonly string[]): Range[] {
  const ranges: Range[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.toLowerCase() ?? '';
    for (const term of terms) {
      for (let at = text.indexOf(term); at >= 0; at = text.indexOf(term, at + term.length)) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + term.length);
        ranges.push(range);
      }
    }
  }
  return ranges;
}

/**
 * Marks the words of the text search in a field (where the browser has the CSS Custom Highlight
 * API), again whenever its content renders anew (Markdown arrives after the plain text).
 */
export function useSearchHighlight(ref: RefObject<HTMLElement | null>, terms: readonly string[]): void {
  const key = terms.join('\u0000');
  useEffect(() => {
    const root = ref.current;
    const highlight = terms.length ? searchHighlight() : undefined;
    if (!root || !highlight) return;
    let ranges: Range[] = [];
    const mark = () => {
      for (const range of ranges) highlight.delete(range);
      ranges = rangesOf(root, terms);
      for (const range of ranges) highlight.add(range);
    };
    mark();
    const observer = new MutationObserver(mark);
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      for (const range of ranges) highlight.delete(range);
    };
    // `key` stands for the terms' contents.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ref, key]);
}
