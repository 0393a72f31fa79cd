// A single-spa root config with no bundler: it asks its own backend (serve.mjs) for a session,
// reads the annotation remote's manifest from the Scholia server (another origin), loads its
// container and mounts `./lifecycles`.
import { registerApplication, start } from './single-spa.js';

const status = document.getElementById('host-status');
const eventList = document.getElementById('events');

/** The host's own shortcut: it must keep working, and never reach the remote. */
document.addEventListener('keydown', (event) => {
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's' && !document.getElementById('annotation').contains(event.target)) {
    event.preventDefault();
    status.textContent = 'Portal layout saved';
  }
});

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.appendChild(script);
  });
}

/** Where the remote's container is, from its manifest (the manifest's own URL is the base). */
async function remoteEntryUrl(serverUrl) {
  const manifestUrl = new URL('/remotes/mfe-annotation/mf-manifest.json', serverUrl);
  const manifest = await (await fetch(manifestUrl)).json();
  const { path, name } = manifest.metaData.remoteEntry;
  return new URL(`${path ? `${path}/` : ''}${name}`, manifestUrl).href;
}

async function loadAnnotation(serverUrl) {
  await loadScript(await remoteEntryUrl(serverUrl));
  const container = window.mfe_annotation;
  await container.init({}); // empty share scope: the remote brings its own React
  return (await container.get('./lifecycles'))();
}

function showEvent(event) {
  const item = document.createElement('li');
  item.textContent = JSON.stringify(event);
  eventList.append(item);
  if (event.type === 'session-expired') status.textContent = 'Please sign in again';
  if (event.type === 'load-failed') document.getElementById('annotation-fallback').hidden = false;
}

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
  },
});
start();
