// Two annotation pages on one page, each its own single-spa application with its own annotator
// (and server, when the back end names two): each keeps its own connection.
import { registerApplication, start } from './single-spa.js';
import { loadAnnotation } from './annotation-remote.js';

async function readSession(slot) {
  return (await fetch(`./session.json?slot=${slot}`)).json();
}

function eventLogger(slot) {
  const list = document.querySelector(`[data-testid="slot-${slot}"] [data-testid="host-events"]`);
  return (event) => {
    const item = document.createElement('li');
    item.textContent = JSON.stringify(event);
    list.append(item);
  };
}

const sessions = { first: await readSession('first'), second: await readSession('second') };
for (const [slot, session] of Object.entries(sessions)) {
  registerApplication({
    name: `scholia-annotation-${slot}`,
    // The remote's code comes from the first server; each instance talks to its own.
    app: () => loadAnnotation(sessions.first.serverUrl),
    activeWhen: () => true,
    customProps: {
      domElement: document.getElementById(`annotation-${slot}`),
      apiBaseUrl: new URL('/api', session.serverUrl).href,
      token: session.token,
      datasetId: session.datasetId,
      language: 'en',
      onEvent: eventLogger(slot),
    },
  });
}
start();
