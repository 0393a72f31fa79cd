import { AnnotationOverview } from '../features/progress/components/annotation-overview.js';
import './mfe-annotation.css';

export interface AppProps {
  datasetId?: string;
}

export function App({ datasetId }: AppProps) {
  return <AnnotationOverview datasetId={datasetId} />;
}
