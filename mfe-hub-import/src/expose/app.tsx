import { RepositorySummary } from '../features/repository/components/repository-summary.js';

export interface AppProps {
  /** Decoded hub repository id, e.g. `stanfordnlp/imdb`. */
  repoId?: string;
}

export function App({ repoId }: AppProps) {
  return <RepositorySummary repoId={repoId} />;
}
