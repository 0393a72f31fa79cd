import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';

/** Rendered HTML by source: a record's fields are re-rendered on every answer, parse them once. */
const cache = new Map<string, string>();
const CACHE_SIZE = 200;

/** Markdown → sanitised HTML: no script, handler or javascript: URL survives (spec: text fields). */
export function renderMarkdown(source: string): string {
  const hit = cache.get(source);
  if (hit !== undefined) return hit;
  const html = DOMPurify.sanitize(marked.parse(source, { async: false, gfm: true, breaks: true }), { USE_PROFILES: { html: true } });
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(source, html);
  return html;
}

export function MarkdownHtml({ source, className }: { source: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return <div className={`mfe-ann-markdown ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
