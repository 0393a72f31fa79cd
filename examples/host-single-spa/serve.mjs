#!/usr/bin/env node
// The example host's "backend": serves the page on its own origin and hands the page a session
// (a token it gets from Scholia with the annotator's credentials, so the password never reaches
// the browser). Node 22 or newer, no dependencies.
//
//   SCHOLIA_URL=http://127.0.0.1:6900 SCHOLIA_USERNAME=ann SCHOLIA_PASSWORD=... SCHOLIA_DATASET_ID=... \
//   PORT=8080 node examples/host-single-spa/serve.mjs
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';

const here = import.meta.dirname;
const require = createRequire(import.meta.url);
const singleSpa = path.join(path.dirname(require.resolve('single-spa/package.json')), 'lib/es2015/esm/single-spa.min.js');
const files = {
  '/': path.join(here, 'index.html'),
  '/index.html': path.join(here, 'index.html'),
  '/host.js': path.join(here, 'host.js'),
  '/annotation-remote.js': path.join(here, 'annotation-remote.js'),
  '/two-annotators.html': path.join(here, 'two-annotators.html'),
  '/two-annotators.js': path.join(here, 'two-annotators.js'),
  '/single-spa.js': singleSpa,
};
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

const server = http.createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://host');
  try {
    if (url.pathname === '/session.json') {
      // Signed in first: a refused sign-in still gets its 502 below.
      const session = await createSession(url.searchParams.get('slot'));
      response.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      return response.end(JSON.stringify(session));
    }
    const file = files[url.pathname];
    if (!file) {
      response.writeHead(404).end('Not found');
      return;
    }
    const type = file.endsWith('.html') ? 'text/html; charset=utf-8' : 'text/javascript; charset=utf-8';
    response.writeHead(200, { 'Content-Type': type });
    response.end(fs.readFileSync(file));
  } catch (error) {
    response.writeHead(502, { 'Content-Type': 'text/plain' }).end(String(error));
  }
});
const port = Number(process.env.PORT ?? 8080);
server.listen(port, process.env.HOST ?? 'localhost', () => console.log(`host on http://${process.env.HOST ?? 'localhost'}:${port}, Scholia at ${serverUrl}`));
