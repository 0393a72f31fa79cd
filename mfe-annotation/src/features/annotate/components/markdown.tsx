import { lazy, memo, Suspense } from 'react';

// marked + DOMPurify (~20 KB gz) load with the first Markdown text, not with the remote.
const MarkdownHtml = lazy(() => import('./markdown-html.js').then((m) => ({ default: m.MarkdownHtml })));

/**
 * Markdown, sanitised (markdown-html.tsx). Until the renderer has loaded, the source shows as
 * plain text: React escapes it, so nothing of it can run.
 */
export const Markdown = memo(function Markdown({ source, className }: { source: string; className?: string }) {
  return (
    <Suspense fallback={<div className={`mfe-ann-markdown ${className ?? ''}`}>{source}</div>}>
      <MarkdownHtml source={source} className={className} />
    </Suspense>
  );
});
