#!/usr/bin/env node
// Annotation speed over a 10,000-record dataset in Debian's Chromium:
//   - Submit → next record shown, p50/p95 over 50 submits (target p95 <= 100 ms)
//   - bulk mode with 100 records rendered (target <= 500 ms)
//   - gzipped size of the annotation remote as Chromium loads it: inside the shell (shared libraries
//     come from the shell) and standalone through single-spa (target <= 200 KB)
//   node bench/annotation.mjs          (needs dist/web: npm run build:web; SCHOLIA_WEB_OUT=<dir> for another build)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '..');
const WEB = process.env.SCHOLIA_WEB_OUT ? path.resolve(process.env.SCHOLIA_WEB_OUT) : path.join(ROOT, 'dist', 'web');
const REMOTE = path.join(WEB, 'remotes', 'mfe-annotation');
const OWNER = { username: 'owner', password: 'bench-owner-password', apiKey: 'bench.owner.apikey' };
const RECORDS = 10_000;
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const freePort = () => new Promise((resolve) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); }); });

async function startServer() {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-bench-ann-'));
  const server = spawn(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'server/src/server.ts'], {
    cwd: ROOT, stdio: 'ignore',
    env: { ...process.env, SCHOLIA_PORT: String(port), SCHOLIA_HOST: '127.0.0.1', SCHOLIA_DATA_DIR: dataDir,
      SCHOLIA_OWNER_USERNAME: OWNER.username, SCHOLIA_OWNER_PASSWORD: OWNER.password, SCHOLIA_OWNER_API_KEY: OWNER.apiKey,
      SCHOLIA_WEB_DIR: WEB, SCHOLIA_LOG_LEVEL: 'warn', SCHOLIA_LOGIN_RATE_LIMIT: '1000' },
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try { await fetch(`${base}/api/_status`); return { base, stop: () => { server.kill('SIGTERM'); fs.rmSync(dataDir, { recursive: true, force: true }); } }; } catch { await new Promise((r) => setTimeout(r, 200)); }
  }
  server.kill('SIGTERM');
  throw new Error('server did not start');
}

async function api(base, method, p, body) {
  const r = await fetch(`${base}/api/v1/${p}`, { method, headers: { 'X-Argilla-Api-Key': OWNER.apiKey, ...(body ? { 'Content-Type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${p} → ${r.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function seed(base) {
  const ws = await api(base, 'POST', 'workspaces', { name: 'bench' });
  const ds = await api(base, 'POST', 'datasets', { name: 'bench-annotation', workspace_id: ws.id });
  await api(base, 'POST', `datasets/${ds.id}/fields`, { name: 'text', title: 'Text', required: true, settings: { type: 'text', use_markdown: false } });
  const q = await api(base, 'POST', `datasets/${ds.id}/questions`, { name: 'label', title: 'Label', required: true, settings: { type: 'label_selection', options: [{ value: 'yes', text: 'Yes' }, { value: 'no', text: 'No' }] } });
  await api(base, 'PUT', `datasets/${ds.id}/publish`);
  for (let start = 0; start < RECORDS; start += 500) {
    const items = Array.from({ length: 500 }, (_, i) => ({ fields: { text: `Record ${start + i + 1}: a short review of a product, good or bad.` }, suggestions: [{ question_id: q.id, value: 'yes', agent: 'bench', score: 0.7 }] }));
    await api(base, 'POST', `datasets/${ds.id}/records/bulk`, { items });
  }
  return ds.id;
}

const gzKb = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length / 1024;

/** Every JS/CSS file in the remote's folder, including fallback copies of shared libraries. */
function remoteFolderSize() {
  let kb = 0;
  for (const f of fs.readdirSync(REMOTE)) if (/\.(js|css)$/.test(f)) kb += gzKb(path.join(REMOTE, f));
  return kb;
}

/** Collects the remote's JS/CSS that a page really requests (the shell's shared chunks excluded). */
function watchRemoteRequests(page) {
  const urls = new Set();
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/remotes/mfe-annotation/') && /\.(js|css)$/.test(pathname)) urls.add(pathname);
  });
  return {
    files: () => [...urls].sort(),
    kb: () => [...urls].reduce((sum, p) => sum + gzKb(path.join(WEB, decodeURIComponent(p))), 0),
  };
}

const SINGLE_SPA = path.join(ROOT, 'node_modules/single-spa/lib/es2015/esm/single-spa.min.js');
const HOST_HTML = '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><div id="slot"></div><script type="module" src="./host.js"></script></body></html>';
const hostJs = (datasetId, token) => `
import { registerApplication, start } from './single-spa.js';
const load = (src) => new Promise((resolve, reject) => { const s = document.createElement('script'); s.src = src; s.onload = resolve; s.onerror = reject; document.head.appendChild(s); });
registerApplication({ name: 'annotation', activeWhen: () => true,
  app: async () => { await load('/remotes/mfe-annotation/remoteEntry.js'); await window.mfe_annotation.init({}); return (await window.mfe_annotation.get('./lifecycles'))(); },
  customProps: { domElement: document.getElementById('slot'), datasetId: ${JSON.stringify(datasetId)}, apiBaseUrl: '/api', token: ${JSON.stringify(token)} } });
start();`;

/** The remote mounted through its single-spa lifecycles on a page with no React: it brings its own. */
async function standaloneSize(browser, base, datasetId, token) {
  const page = await browser.newPage();
  const watch = watchRemoteRequests(page);
  await page.route('**/bench-host/index.html', (r) => r.fulfill({ contentType: 'text/html', body: HOST_HTML }));
  await page.route('**/bench-host/host.js', (r) => r.fulfill({ contentType: 'text/javascript', body: hostJs(datasetId, token) }));
  await page.route('**/bench-host/single-spa.js', (r) => r.fulfill({ contentType: 'text/javascript', body: fs.readFileSync(SINGLE_SPA) }));
  await page.goto(`${base}/bench-host/index.html`);
  await page.getByTestId('record-position').waitFor({ timeout: 30_000 });
  await page.close();
  return watch;
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

const server = await startServer();
try {
  const datasetId = await seed(server.base);
  const { access_token } = await (await fetch(`${server.base}/api/v1/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ username: OWNER.username, password: OWNER.password }) })).json();
  const browser = await chromium.launch({ executablePath: process.env.SCHOLIA_CHROMIUM ?? '/usr/bin/chromium', args: ARGS });
  const page = await browser.newPage();
  const inShell = watchRemoteRequests(page);
  await page.goto(`${server.base}/no/such/page`);
  await page.evaluate((t) => localStorage.setItem('scholia.token', t), access_token);
  await page.goto(`${server.base}/dataset/${datasetId}/annotation-mode`);
  await page.getByTestId('record-position').waitFor({ timeout: 30_000 });
  const focusFiles = inShell.files();
  const focusKb = inShell.kb();
  const times = [];
  // Where the time goes: the POST of each submit (server round trip as the browser saw it) and
  // the other API calls made meanwhile (buffering, progress and metrics refreshes).
  const posts = [];
  const others = [];
  const onFinished = (request) => {
    const { pathname } = new URL(request.url());
    if (!pathname.startsWith('/api/')) return;
    const { responseEnd } = request.timing();
    if (request.method() === 'POST' && /\/records\/[^/]+\/responses$/.test(pathname)) posts.push(responseEnd);
    else others.push(`${request.method()} ${pathname.replace(/[0-9a-f-]{36}/g, ':id')}`);
  };
  page.on('requestfinished', onFinished);
  for (let i = 0; i < 50; i++) {
    const expected = `Record ${i + 2} of`;
    const ms = await page.evaluate(async (expected) => {
      const submit = [...document.querySelectorAll('button[type="submit"]')][0];
      const t0 = performance.now();
      submit.click();
      return new Promise((resolve) => {
        const check = () => (document.querySelector('[data-testid="record-position"]')?.textContent?.startsWith(expected) ? resolve(performance.now() - t0) : requestAnimationFrame(check));
        check();
      });
    }, expected);
    times.push(ms);
  }
  page.off('requestfinished', onFinished);
  const otherCounts = Object.entries(others.reduce((acc, k) => ({ ...acc, [k]: (acc[k] ?? 0) + 1 }), {}));
  const t0 = Date.now();
  await page.goto(`${server.base}/dataset/${datasetId}/annotation-mode?mode=bulk&size=100`);
  await page.getByTestId('bulk-view').waitFor({ timeout: 30_000 });
  await page.getByTestId('bulk-record').first().waitFor();
  const navMs = Date.now() - t0;
  // Bulk render alone: switch page (records already fetched by the server in one call) and time until rows show.
  const renderMs = await page.evaluate(async () => {
    const next = [...document.querySelectorAll('.mfe-ann-pagination button')].at(-1);
    const t = performance.now();
    const firstBefore = document.querySelector('[data-testid="bulk-record"]')?.getAttribute('data-record-id');
    next.click();
    return new Promise((resolve) => {
      const check = () => {
        const first = document.querySelector('[data-testid="bulk-record"]')?.getAttribute('data-record-id');
        if (first && first !== firstBefore) resolve(performance.now() - t); else requestAnimationFrame(check);
      };
      check();
    });
  });
  const bulkKb = inShell.kb();
  const standalone = await standaloneSize(browser, server.base, datasetId, access_token);
  await browser.close();
  const load = os.loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`Submit → next record (50 submits, ${RECORDS} records): p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms (target p95 ≤ 100 ms)`);
  console.log(`  of which the response POST (browser-side round trip): p50 ${pct(posts, 50).toFixed(1)} ms, p95 ${pct(posts, 95).toFixed(1)} ms`);
  console.log(`  other API calls during the 50 submits: ${otherCounts.map(([k, n]) => `${n}× ${k}`).join(', ') || 'none'}`);
  console.log(`Bulk mode, 100 records: next page fetched and rendered in ${renderMs.toFixed(0)} ms; full navigation ${navMs} ms (target ≤ 500 ms)`);
  console.log(`mfe-annotation gzipped, as loaded in Chromium (target ≤ 200 KB):`);
  console.log(`  in the shell, focus mode: ${focusKb.toFixed(1)} KB in ${focusFiles.length} files (${focusFiles.map((f) => path.basename(f)).join(', ')})`);
  console.log(`  in the shell, after bulk mode too: ${bulkKb.toFixed(1)} KB`);
  console.log(`  standalone (single-spa, own React): ${standalone.kb().toFixed(1)} KB in ${standalone.files().length} files`);
  console.log(`  (every file in the folder, fallback copies of shared libraries included: ${remoteFolderSize().toFixed(1)} KB)`);
  console.log(`load average at the end: ${load} (${os.cpus().length} cores)`);
} finally {
  server.stop();
}
