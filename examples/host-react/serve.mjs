#!/usr/bin/env node
// The portal's "back end": serves the built page (dist/, `npm run build`) on its own origin and
// hands the page a session (a token it gets from Scholia with the annotator's credentials, so the
// password never reaches the browser). Node 22 or newer, no dependencies.
//
//   SCHOLIA_URL=http://127.0.0.1:6900 SCHOLIA_USERNAME=ann SCHOLIA_PASSWORD=... SCHOLIA_DATASET_ID=... \
//   PORT=8080 node examples/host-react/serve.mjs
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const dist = path.join(import.meta.dirname, 'dist');
if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error('No build in examples/host-react/dist: run `npm run build` in examples/host-react first.');
  process.exit(1);
}
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
const serverUrl = process.env.SCHOLIA_URL ?? 'http://127.0.0.1:6900';

/**
 * Who is signed in where: the annotator of `SCHOLIA_*`, and on the two-annotators page a second
 * one of `SCHOLIA_SECOND_*` (their own Scholia server when `SCHOLIA_SECOND_URL` names one).
 */
function annotatorOf(slot) {
  if (slot !== 'second') {
    return { serverUrl, username: process.env.SCHOLIA_USERNAME, password: process.env.SCHOLIA_PASSWORD, datasetId: process.env.SCHOLIA_DATASET_ID };
  }
  return {
    serverUrl: process.env.SCHOLIA_SECOND_URL ?? serverUrl,
    username: process.env.SCHOLIA_SECOND_USERNAME,
    password: process.env.SCHOLIA_SECOND_PASSWORD,
    datasetId: process.env.SCHOLIA_SECOND_DATASET_ID ?? process.env.SCHOLIA_DATASET_ID,
  };
}

async function createSession(slot) {
  const annotator = annotatorOf(slot);
  const response = await fetch(new URL('/api/v1/token', annotator.serverUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: annotator.username ?? '', password: annotator.password ?? '' }),
  });
  if (!response.ok) throw new Error(`Scholia refused the sign-in: HTTP ${response.status}`);
  const { access_token: token } = await response.json();
  return { serverUrl: annotator.serverUrl, token, datasetId: annotator.datasetId };
}

/** A file of the build, or undefined (never a path outside dist/). */
function buildFile(pathname) {
  // The two-annotators page is the same app: it picks its view from the address.
  const page = pathname === '/' || pathname === '/two-annotators.html' ? 'index.html' : path.normalize(decodeURIComponent(pathname));
  const file = path.join(dist, page);
  return file.startsWith(dist + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile() ? file : undefined;
}

const server = http.createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://host');
  try {
    if (url.pathname === '/session.json') {
      // Signed in first: a refused sign-in still gets its 502 below.
      const session = await createSession(url.searchParams.get('slot'));
      response.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      return response.end(JSON.stringify(session));
    }
    const file = buildFile(url.pathname);
    if (!file) {
      response.writeHead(404).end('Not found');
      return;
    }
    response.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream' });
    response.end(fs.readFileSync(file));
  } catch (error) {
    response.writeHead(502, { 'Content-Type': 'text/plain' }).end(String(error));
  }
});
const port = Number(process.env.PORT ?? 8080);
server.listen(port, process.env.HOST ?? 'localhost', () => console.log(`portal on http://${process.env.HOST ?? 'localhost'}:${port}, Scholia at ${serverUrl}`));
