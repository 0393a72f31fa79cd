import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from '@scholia/shared/i18n';
import { startTheme } from '@scholia/shared/theme';
import { App } from './app.js';
import { watchNetworkStatus } from './chrome/network-status.js';
import { ensureRemotesRegistered } from './remotes/remote-manifest.js';
import { reloadAfterChunkError } from './routes/chunk-reload-guard.js';
import './styles/app.css';

initI18n();
startTheme();
watchNetworkStatus();
// Read the manifest now, in parallel with the first guard chain; a failure is retried on use.
ensureRemotesRegistered().catch(() => {});
// Chunk failures outside React (e.g. a prefetch) get the same once-per-60 s reload.
window.addEventListener('unhandledrejection', (event) => void reloadAfterChunkError(event.reason));

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
createRoot(container).render(<StrictMode><App /></StrictMode>);
