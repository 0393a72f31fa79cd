import { AnnotationPage } from '../features/annotate/components/annotation-page.js';
import { AnnotationOverview } from '../features/progress/components/annotation-overview.js';
import { registerAnnotationI18n } from '../i18n/register-annotation-i18n.js';
import './mfe-annotation.css';

registerAnnotationI18n();

export interface AppProps {
  datasetId?: string;
}

/** `/dataset/:id/annotation-mode`; without an id the overview says no dataset was selected. */
export function App({ datasetId }: AppProps) {
  if (!datasetId) return <AnnotationOverview />;
  return <AnnotationPage key={datasetId} datasetId={datasetId} />;
}
