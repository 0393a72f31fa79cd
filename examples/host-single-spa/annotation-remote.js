// Loads Scholia's annotation remote once per page: its manifest, then the container it names.

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

let container;

/**
 * The remote's single-spa lifecycles. The container is loaded and initialised once; every
 * application mounted from it is an instance of its own, with its own server and annotator.
 */
export async function loadAnnotation(serverUrl) {
  container ??= (async () => {
    await loadScript(await remoteEntryUrl(serverUrl));
    await window.mfe_annotation.init({}); // empty share scope: the remote brings its own React
    return window.mfe_annotation;
  })();
  const lifecycles = (await (await container).get('./lifecycles'))();
  return { ...lifecycles }; // single-spa wants one lifecycles object per application
}
