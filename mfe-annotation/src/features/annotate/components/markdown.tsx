import { lazy, memo, Suspense } from 'react';

// marked + DOMPurify (~20 KB gz) load with the first Markdown text, not with the remote.
const MarkdownHtml = lazy(() => import('@scholia/shared/markdown').then((m) => ({ default: m.MarkdownHtml })));

/**
 * Markdown, sanitised (@scholia/shared/markdown). Until the renderer has loaded, the source shows as
 * plain text: React escapes it, so nothing of it can run.
 */
export const Markdown = memo(function Markdown({ source, className }: { source: string; className?: string }) {
  return (
    <Suspense fallback={<div className={`sch-markdown ${className ?? ''}`}>{source}</div>}>
      <MarkdownHtml source={source} className={className} />
    </Suspense>
  );
});
