import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';

/** Markdown → sanitized HTML (guidelines are user content: DOMPurify strips scripts and handlers). */
export function renderMarkdown(source: string): string {
  const html = marked.parse(source, { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(html);
}

export function MarkdownView({ source, testId }: { source: string; testId?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return <div className="mfe-settings__markdown" data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
}
