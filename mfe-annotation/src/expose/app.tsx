import type { AnnotationAppProps } from '@scholia/shared';
import { AnnotationEmbedRoot } from '../embed/annotation-embed-root.js';
import { AnnotationPage } from '../features/annotate/components/annotation-page.js';
import { AnnotationOverview } from '../features/progress/components/annotation-overview.js';
import { registerAnnotationI18n } from '../i18n/register-annotation-i18n.js';
import './mfe-annotation.css';

registerAnnotationI18n();

export type AppProps = AnnotationAppProps;

/**
 * `/dataset/:id/annotation-mode`; without an id the overview says no dataset was selected.
 * Works in any React 19 host: it brings its own router and query client when the host has none,
 * and talks to the server the host names (`apiBaseUrl` with `token` or `apiKey`).
 */
export function App({ datasetId, ...embed }: AppProps) {
  return (
    <AnnotationEmbedRoot datasetId={datasetId} {...embed}>
      {datasetId ? <AnnotationPage key={datasetId} datasetId={datasetId} /> : <AnnotationOverview />}
    </AnnotationEmbedRoot>
  );
}
