import { Component, lazy, memo, Suspense, type ReactNode } from 'react';

// marked + DOMPurify (~20 KB gz) load with the first Markdown text, not with the remote.
const loadRenderer = () => lazy(() => import('@scholia/shared/markdown').then((m) => ({ default: m.MarkdownHtml })));
let MarkdownHtml = loadRenderer();

/**
 * Markdown, sanitised (@scholia/shared/markdown). Until the renderer has loaded, the source shows as
 * plain text: React escapes it, so nothing of it can run. So it does when the renderer cannot load
 * (the connection dropped as the page opened): the record stays readable and answerable offline,
 * and the renderer is fetched again once the browser is back online.
 */
export const Markdown = memo(function Markdown({ source, className }: { source: string; className?: string }) {
  const plain = <div className={`sch-markdown ${className ?? ''}`} dir="auto">{source}</div>;
  return (
    <RendererBoundary fallback={plain}>
      <Suspense fallback={plain}>
        <MarkdownHtml source={source} className={className} />
      </Suspense>
    </RendererBoundary>
  );
});

class RendererBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidMount(): void {
    window.addEventListener('online', this.retry);
  }

  override componentWillUnmount(): void {
    window.removeEventListener('online', this.retry);
  }

  // A failed lazy import stays failed: a new one is made for the retry.
  private retry = (): void => {
    if (!this.state.failed) return;
    MarkdownHtml = loadRenderer();
    this.setState({ failed: false });
  };

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
