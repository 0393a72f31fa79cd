import { useLocation } from 'react-router-dom';
import { ConfigurationEditor } from '../features/configuration/components/configuration-editor.js';
import { RepositoryLookup } from '../features/repository/components/repository-lookup.js';
import { registerHubImportTranslations } from '../i18n/register-translations.js';
import './mfe-hub-import.css';

registerHubImportTranslations();

export interface AppProps {
  /** Decoded hub repository id, e.g. `stanfordnlp/imdb`. */
  repoId?: string;
}

/** `/:id` looks the repository up; `/new/:id` configures and creates the dataset (spec §2). */
export function App({ repoId }: AppProps) {
  const { pathname } = useLocation();
  return pathname.startsWith('/new/') ? <ConfigurationEditor repoId={repoId} /> : <RepositoryLookup repoId={repoId} />;
}
