import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';

/** Rendered HTML by source: a record's fields are re-rendered on every answer, parse them once. */
const cache = new Map<string, string>();
const CACHE_SIZE = 200;

/**
 * Record content may not restyle the page: without `style` a record cannot cover the answer
 * buttons or fake the app's own controls.
 */
const PURIFY_OPTIONS = { USE_PROFILES: { html: true }, FORBID_TAGS: ['style'], FORBID_ATTR: ['style'] };

/** Markdown → sanitised HTML: no script, handler, style or javascript: URL survives (spec: text fields). */
export function renderMarkdown(source: string): string {
  const hit = cache.get(source);
  if (hit !== undefined) return hit;
  const html = DOMPurify.sanitize(marked.parse(source, { async: false, gfm: true, breaks: true }), PURIFY_OPTIONS);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(source, html);
  return html;
}

export function MarkdownHtml({ source, className }: { source: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return <div className={`mfe-ann-markdown ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
