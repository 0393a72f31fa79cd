// A single-spa root config with no bundler: it asks its own backend (serve.mjs) for a session,
// reads the annotation remote's manifest from the Scholia server (another origin), loads its
// container and mounts `./lifecycles`.
import { addErrorHandler, getAppStatus, LOAD_ERROR, registerApplication, start } from './single-spa.js';
import { loadAnnotation } from './annotation-remote.js';

const status = document.getElementById('host-status');
const eventList = document.getElementById('events');

/** The host's own shortcut: it must keep working, and never reach the remote. */
document.addEventListener('keydown', (event) => {
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's' && !document.getElementById('annotation').contains(event.target)) {
    event.preventDefault();
    status.textContent = 'Portal layout saved';
  }
});

function showEvent(event) {
  const item = document.createElement('li');
  item.textContent = JSON.stringify(event);
  eventList.append(item);
  if (event.type === 'session-expired') status.textContent = 'Please sign in again';
  if (event.type === 'load-failed') document.getElementById('annotation-fallback').hidden = false;
}

// Scholia down as the page opens: the remote's files never load, so it cannot say so itself.
addErrorHandler((error) => {
  if (getAppStatus('scholia-annotation') === LOAD_ERROR) document.getElementById('annotation-fallback').hidden = false;
  console.error(error.appOrParcelName, error);
});

const session = await (await fetch('./session.json')).json();
registerApplication({
  name: 'scholia-annotation',
  app: () => loadAnnotation(session.serverUrl),
  activeWhen: () => true,
  customProps: {
    domElement: document.getElementById('annotation'),
    apiBaseUrl: new URL('/api', session.serverUrl).href,
    token: session.token,
    datasetId: session.datasetId,
    language: 'en',
    theme: new URLSearchParams(location.search).get('theme') ?? undefined,
    onEvent: showEvent,
    // Scholia's own pages (the dataset's settings) open on Scholia, in a tab of their own.
    onNavigate: (target) => window.open(new URL(target.path, session.serverUrl), '_blank', 'noopener'),
  },
});
start();
