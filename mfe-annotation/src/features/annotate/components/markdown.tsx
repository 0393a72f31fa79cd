import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';

/** Markdown → sanitised HTML: no script, handler or javascript: URL survives (spec: text fields). */
export function renderMarkdown(source: string): string {
  const html = marked.parse(source, { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}

export function Markdown({ source, className }: { source: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return <div className={`mfe-ann-markdown ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
