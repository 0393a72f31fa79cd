import { SettingsPage } from '../features/settings-page/settings-page.js';
import { registerSettingsI18n } from '../i18n/register-settings-i18n.js';
import './mfe-settings.css';

registerSettingsI18n();

export interface AppProps {
  datasetId?: string;
}

export function App({ datasetId }: AppProps) {
  return <SettingsPage key={datasetId} datasetId={datasetId} />;
}
