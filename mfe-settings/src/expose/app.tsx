import { DatasetInfo } from '../features/dataset-info/components/dataset-info.js';
import './mfe-settings.css';

export interface AppProps {
  datasetId?: string;
}

export function App({ datasetId }: AppProps) {
  return <DatasetInfo datasetId={datasetId} />;
}
