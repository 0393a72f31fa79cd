#!/usr/bin/env node
// Frontend budget check: gzipped JS of the shell's initial load and of each remote's entry and
// exposed chunks, plus time to first render of the home page in Debian's Chromium, and what each
// example host on another origin downloads to show one record: examples/host-single-spa (the
// remote brings its own React) and examples/host-react (built first; React shared with the remote).
// Targets: shell initial load <= 150 KB gz (React included); home rendered <= 1 s.
//
//   node bench/frontend-bundle.mjs [--runs 5] [--timeline]   (builds dist/web first if it is missing)
//   SCHOLIA_WEB_OUT=/tmp/web measures a build made with the same variable (scripts/build-web.mjs).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '..');
const WEB = process.env.SCHOLIA_WEB_OUT ? path.resolve(process.env.SCHOLIA_WEB_OUT) : path.join(ROOT, 'dist', 'web');
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const TIMELINE = process.argv.includes('--timeline');
const TARGET_SHELL_KB = 150;
const TARGET_RENDER_MS = 1000;
const OWNER = { username: 'owner', password: 'bench-owner-password', apiKey: 'bench.owner.apikey' };
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const gzKb = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length / 1024;
const fmt = (kb) => `${kb.toFixed(1).padStart(7)} KB`;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function staticReport() {
  const remotes = fs.readdirSync(path.join(WEB, 'remotes'));
  console.log('Remote entries and exposed chunks (gzip -9):');
  for (const remote of remotes) {
    const dir = path.join(WEB, 'remotes', remote);
    const files = fs.readdirSync(dir).filter((f) => f === 'remoteEntry.js' || /^__federation_expose_.*\.js$/.test(f));
    for (const file of files.sort()) console.log(`  ${fmt(gzKb(path.join(dir, file)))}  ${remote}/${file}`);
  }
}

async function startServer(corsOrigin) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-bench-'));
  const server = spawn(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'server/src/server.ts'], {
    cwd: ROOT,
    stdio: 'ignore',
    env: { ...process.env, SCHOLIA_PORT: String(port), SCHOLIA_HOST: '127.0.0.1', SCHOLIA_DATA_DIR: dataDir,
      SCHOLIA_OWNER_USERNAME: OWNER.username, SCHOLIA_OWNER_PASSWORD: OWNER.password, SCHOLIA_OWNER_API_KEY: OWNER.apiKey,
      SCHOLIA_WEB_DIR: WEB, SCHOLIA_LOG_LEVEL: 'warn', SCHOLIA_LOGIN_RATE_LIMIT: '1000', SCHOLIA_CORS_ORIGINS: corsOrigin },
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      await fetch(`${base}/api/_status`);
      return { base, stop: () => { server.kill('SIGTERM'); fs.rmSync(dataDir, { recursive: true, force: true }); } };
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  server.kill('SIGTERM');
  throw new Error('server did not start');
}

/** Local path of a JS URL served from dist/web. */
const fileOf = (url) => path.join(WEB, decodeURIComponent(new URL(url).pathname));

async function browserReport(base) {
  const token = await fetch(`${base}/api/v1/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: OWNER.username, password: OWNER.password }),
  }).then((r) => r.json());
  const browser = await chromium.launch({ executablePath: process.env.SCHOLIA_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const times = [];
    let shellFiles = [];
    let homeFiles = [];
    for (let run = 0; run < RUNS + 1; run++) {
      const context = await browser.newContext(); // cold HTTP cache every run
      await context.addInitScript((t) => localStorage.setItem('scholia.token', t), token.access_token);
      const page = await context.newPage();
      const js = [];
      const waterfall = [];
      page.on('request', (request) => { if (request.resourceType() === 'script') js.push(request.url()); });
      page.on('requestfinished', (request) => {
        const t = request.timing();
        waterfall.push({ url: new URL(request.url()).pathname, type: request.resourceType(), start: t.startTime, end: t.responseEnd });
      });
      await page.goto(`${base}/`, { waitUntil: 'commit' });
      await page.getByRole('heading', { name: 'Your datasets' }).waitFor();
      // Rendered = the heading and the count text are both on screen; time from navigation start.
      await page.getByText(/datasets? found/).waitFor();
      const ms = await page.evaluate(() => performance.now());
      if (run > 0) times.push(ms); // run 0 warms the server and the OS file cache
      if (TIMELINE && run === RUNS) {
        // Playwright's timing: startTime is epoch ms, responseEnd is relative to it.
        const origin = await page.evaluate(() => performance.timeOrigin);
        console.log(`\nWaterfall of the last run (ms from navigation start; rendered at ${ms.toFixed(0)}):`);
        for (const w of waterfall.sort((a, b) => a.start - b.start)) {
          console.log(`  ${(w.start - origin).toFixed(0).padStart(5)} → ${(w.start - origin + w.end).toFixed(0).padStart(5)}  ${w.type.padEnd(6)} ${w.url}`);
        }
      }
      shellFiles = [...new Set(js.filter((u) => !new URL(u).pathname.startsWith('/remotes/')))];
      homeFiles = [...new Set(js.filter((u) => new URL(u).pathname.startsWith('/remotes/')))];
      await context.close();
    }
    const shellKb = shellFiles.reduce((sum, url) => sum + gzKb(fileOf(url)), 0);
    const homeKb = homeFiles.reduce((sum, url) => sum + gzKb(fileOf(url)), 0);
    console.log(`\nShell initial load, home route (${shellFiles.length} JS files, gzip -9):`);
    for (const url of shellFiles) console.log(`  ${fmt(gzKb(fileOf(url)))}  ${new URL(url).pathname}`);
    console.log(`  ${fmt(shellKb)}  TOTAL shell  (target <= ${TARGET_SHELL_KB} KB) ${shellKb <= TARGET_SHELL_KB ? 'OK' : 'OVER'}`);
    console.log(`  ${fmt(homeKb)}  + mfe-home on the home route (${homeFiles.length} files)`);
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    console.log(`\nHome first render (navigation start → datasets heading + count), ${RUNS} cold runs:`);
    console.log(`  median ${median.toFixed(0)} ms, min ${times[0].toFixed(0)} ms, max ${times.at(-1).toFixed(0)} ms` +
      `  (target <= ${TARGET_RENDER_MS} ms) ${median <= TARGET_RENDER_MS ? 'OK' : 'OVER'}`);
  } finally {
    await browser.close();
  }
}

/** A one-record dataset to annotate, made as the owner. */
async function createEmbedDataset(base) {
  const api = async (method, route, body) => {
    const response = await fetch(`${base}/api/v1/${route}`, {
      method, body: body && JSON.stringify(body),
      headers: { 'X-Argilla-Api-Key': OWNER.apiKey, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    });
    if (!response.ok) throw new Error(`${method} ${route} → ${response.status} ${await response.text()}`);
    return response.json();
  };
  const workspace = await api('POST', 'workspaces', { name: `bench-embed-${Date.now()}` });
  const dataset = await api('POST', 'datasets', { name: 'bench-embed', workspace_id: workspace.id });
  await api('POST', `datasets/${dataset.id}/fields`, { name: 'text', title: 'Text', required: true, settings: { type: 'text' } });
  await api('POST', `datasets/${dataset.id}/questions`, { name: 'label', title: 'Label', required: true,
    settings: { type: 'label_selection', options: [{ value: 'yes', text: 'Yes' }, { value: 'no', text: 'No' }] } });
  await api('PUT', `datasets/${dataset.id}/publish`);
  await api('POST', `datasets/${dataset.id}/records/bulk`, { items: [{ fields: { text: 'One record to label' } }] });
  return dataset.id;
}

/** The example hosts: `sharesReact` when the host's React is the remote's (examples/host-react). */
const EXAMPLE_HOSTS = [
  { dir: 'host-single-spa', label: 'Single-spa host (examples/host-single-spa; the remote brings its own React)', build: false },
  { dir: 'host-react', label: 'React host (examples/host-react; React shared with the remote)', build: true },
];

/** gzip -9 and the size as the server sends it (its brotli file when there is one). */
function measured(file, name) {
  const brotli = fs.existsSync(`${file}.br`) ? fs.statSync(`${file}.br`).size : fs.statSync(file).size;
  return { name, gz: gzKb(file), brotli };
}

function printFiles(title, files, sentAs) {
  const gzTotal = files.reduce((sum, f) => sum + f.gz, 0);
  const brTotal = files.reduce((sum, f) => sum + f.brotli, 0);
  console.log(`  ${title}, ${files.length} files:`);
  for (const f of files) console.log(`    ${fmt(f.gz)}  ${f.name}`);
  console.log(`    ${fmt(gzTotal)}  total gzip -9 (${Math.round(gzTotal * 1024)} bytes); ${brTotal} bytes ${sentAs}`);
  return gzTotal;
}

/**
 * An example host on its own origin showing one record: every file it fetched from the server's
 * /remotes/ (manifest, container, chunks, CSS; gzip -9 and the brotli files the server sends)
 * and its own page and scripts (gzip -9 of what its serve.mjs sent, uncompressed).
 */
async function embedReport(base, hostPort, datasetId, example) {
  const exampleDir = path.join(ROOT, 'examples', example.dir);
  if (example.build) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: exampleDir, stdio: 'inherit' });
    if (build.status !== 0) throw new Error(`examples/${example.dir}: npm run build failed`);
  }
  const host = spawn(process.execPath, [path.join(exampleDir, 'serve.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PORT: String(hostPort), HOST: 'localhost', SCHOLIA_URL: base,
      SCHOLIA_USERNAME: OWNER.username, SCHOLIA_PASSWORD: OWNER.password, SCHOLIA_DATASET_ID: datasetId },
  });
  await new Promise((resolve) => host.stdout.once('data', resolve));
  const hostOrigin = `http://localhost:${hostPort}`;
  const browser = await chromium.launch({ executablePath: process.env.SCHOLIA_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const fromServer = new Set();
    const fromHost = new Map();
    page.on('requestfinished', async (request) => {
      const url = new URL(request.url());
      if (url.origin === base && url.pathname.startsWith('/remotes/')) fromServer.add(url.pathname);
      if (url.origin === hostOrigin && /\.(js|css)$|^\/$/.test(url.pathname)) fromHost.set(url.pathname, (await request.response())?.body());
    });
    await page.goto(`${hostOrigin}/`);
    await page.getByTestId('record-position').waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    console.log(`\n${example.label}, on another origin, showing one record:`);
    const remoteKb = printFiles('from the server\'s /remotes/', [...fromServer].sort().map((pathname) => measured(path.join(WEB, decodeURIComponent(pathname)), pathname)), 'as the server sends them (brotli)');
    const hostFiles = await Promise.all([...fromHost].sort(([a], [b]) => a.localeCompare(b)).map(async ([name, body]) => {
      const data = await body;
      return { name, gz: zlib.gzipSync(data, { level: 9 }).length / 1024, brotli: data.length };
    }));
    const hostKb = printFiles('the host\'s own page and scripts', hostFiles, 'as serve.mjs sends them (uncompressed)');
    console.log(`    ${fmt(remoteKb + hostKb)}  TOTAL gzip -9, host and remote`);
  } finally {
    await browser.close();
    const exited = new Promise((resolve) => host.once('exit', resolve));
    host.kill('SIGTERM');
    await exited;
  }
}

if (!fs.existsSync(path.join(WEB, 'remotes.json'))) {
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-web.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}
staticReport();
const hostPort = await freePort();
const server = await startServer(`http://localhost:${hostPort}`);
try {
  await browserReport(server.base);
  const datasetId = await createEmbedDataset(server.base);
  for (const example of EXAMPLE_HOSTS) await embedReport(server.base, hostPort, datasetId, example);
} finally {
  server.stop();
}
