#!/usr/bin/env node
// Runs the official `argilla` Python SDK (pinned in requirements.txt) against a real Scholia server.
//
//   node server/tests/sdk/run-sdk-tests.mjs [extra pytest args...]     (any cwd)
//   npm run test:sdk -w @scholia/server -- -k progress
//
// Steps: create/refresh the virtualenv at tests/sdk/.venv, start `tsx server/src/server.ts` on a free port
// with a throw-away data dir, wait for GET /api/_status, run pytest, stop the server, exit with pytest's code.
//
// Environment knobs:
//   PYTHON                     interpreter used to create the venv (default: python3)
//   SCHOLIA_TEST_DATABASE_URL  passed to the server as SCHOLIA_DATABASE_URL (e.g. a PostgreSQL URL);
//                              otherwise the server uses SQLite inside the temp data dir
//   SCHOLIA_SDK_TIMEOUT_S      hard limit for the pytest run (default 900 s)
//   SCHOLIA_SDK_KEEP_DATA=1    keep the temp data dir and server log after a successful run too
//                              (a failed run always keeps them and prints where)
//   SCHOLIA_SDK_SKIP_INSTALL=1 do not pip-install even if requirements.txt changed
// Only Node built-ins are used.

import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const SDK_DIR = path.dirname(fileURLToPath(import.meta.url));
const SERVER_DIR = path.resolve(SDK_DIR, '..', '..');
const REPO_ROOT = path.resolve(SERVER_DIR, '..');
const VENV_DIR = path.join(SDK_DIR, '.venv');
const IS_WINDOWS = process.platform === 'win32';
const VENV_PYTHON = IS_WINDOWS ? path.join(VENV_DIR, 'Scripts', 'python.exe') : path.join(VENV_DIR, 'bin', 'python');
const REQUIREMENTS = path.join(SDK_DIR, 'requirements.txt');
const STAMP = path.join(VENV_DIR, '.scholia-requirements.sha256');

const API_KEY = 'argilla.apikey';
const STARTUP_TIMEOUT_MS = 90_000;
const PYTEST_TIMEOUT_MS = Number(process.env.SCHOLIA_SDK_TIMEOUT_S ?? 900) * 1000;
const LOG_TAIL_LINES = 40;

const log = (message) => console.log(`[sdk-tests] ${message}`);

// ---------------------------------------------------------------------------------------------------------------
// Cleanup: the server runs in its own process group so that npx -> node(tsx) -> children all die together.

let server = null;
let pytest = null;
let dataDir = null;
let serverLogPath = null;
let cleanedUp = false;
let keepData = process.env.SCHOLIA_SDK_KEEP_DATA === '1';

function killGroup(child, signal) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  try {
    if (IS_WINDOWS) child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

function cleanupSync() {
  if (cleanedUp) return;
  cleanedUp = true;
  killGroup(pytest, 'SIGKILL');
  killGroup(server, 'SIGKILL');
  if (dataDir && !keepData) {
    try {
      fs.rmSync(dataDir, { recursive: true, force: true });
    } catch {
      /* best effort */
    }
  } else if (dataDir) {
    log(`kept data dir ${dataDir} (server log: ${serverLogPath})`);
  }
}

async function stopServer() {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  killGroup(server, 'SIGTERM');
  const timer = setTimeout(() => killGroup(server, 'SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

process.on('exit', cleanupSync);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    log(`received ${signal}, stopping`);
    cleanupSync();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}
process.on('uncaughtException', (error) => {
  console.error(error);
  cleanupSync();
  process.exit(1);
});
process.on('unhandledRejection', (error) => {
  console.error(error);
  cleanupSync();
  process.exit(1);
});

// ---------------------------------------------------------------------------------------------------------------
// Virtualenv

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

function ensureVenv() {
  if (!fs.existsSync(VENV_PYTHON)) {
    const python = process.env.PYTHON || (IS_WINDOWS ? 'python' : 'python3');
    log(`creating virtualenv at ${path.relative(REPO_ROOT, VENV_DIR)} with ${python}`);
    run(python, ['-m', 'venv', VENV_DIR]);
  }
  const wanted = crypto.createHash('sha256').update(fs.readFileSync(REQUIREMENTS)).digest('hex');
  const installed = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, 'utf8').trim() : '';
  if (installed === wanted) return;
  if (process.env.SCHOLIA_SDK_SKIP_INSTALL === '1') {
    log('requirements changed but SCHOLIA_SDK_SKIP_INSTALL=1: not installing');
    return;
  }
  log('installing pinned SDK requirements (argilla, pytest, ...)');
  run(VENV_PYTHON, ['-m', 'pip', 'install', '--disable-pip-version-check', '--quiet', '-r', REQUIREMENTS]);
  fs.writeFileSync(STAMP, `${wanted}\n`);
}

// ---------------------------------------------------------------------------------------------------------------
// Server

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const serverOutput = []; // ring buffer of recent stdout/stderr lines
const serverStderrTail = [];
// The server logs JSON lines (pino) on stdout: remember which requests answered >= 400 or logged errors.
const pendingRequests = new Map(); // reqId -> "METHOD url"
const failedRequests = [];
const serverErrors = [];
let partialStdout = '';

function remember(buffer, chunk, limit) {
  for (const line of chunk.toString('utf8').split('\n')) {
    if (line.length === 0) continue;
    buffer.push(line);
    if (buffer.length > limit) buffer.shift();
  }
}

function pushLimited(buffer, item, limit) {
  buffer.push(item);
  if (buffer.length > limit) buffer.shift();
}

function trackRequests(chunk) {
  const lines = (partialStdout + chunk.toString('utf8')).split('\n');
  partialStdout = lines.pop() ?? '';
  for (const line of lines) {
    if (!line.startsWith('{')) continue;
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry.req && entry.reqId) pendingRequests.set(entry.reqId, `${entry.req.method} ${entry.req.url}`);
    if (entry.level >= 50) {
      const request = pendingRequests.get(entry.reqId) ?? '';
      const detail = entry.err?.stack ?? entry.err?.message ?? entry.msg;
      pushLimited(serverErrors, `${request ? `${request}: ` : ''}${detail}`, 20);
    }
    if (entry.res && entry.reqId) {
      const request = pendingRequests.get(entry.reqId) ?? '?';
      pendingRequests.delete(entry.reqId);
      if (entry.res.statusCode >= 400) pushLimited(failedRequests, `${request} -> ${entry.res.statusCode}`, 60);
    }
  }
}

function startServer(port) {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-sdk-'));
  serverLogPath = path.join(dataDir, 'server.log');
  const logStream = fs.createWriteStream(serverLogPath);
  const env = {
    ...process.env,
    SCHOLIA_PORT: String(port),
    SCHOLIA_HOST: '127.0.0.1',
    SCHOLIA_DATA_DIR: dataDir,
    SCHOLIA_OWNER_USERNAME: 'argilla',
    SCHOLIA_OWNER_PASSWORD: '12345678',
    SCHOLIA_OWNER_API_KEY: API_KEY,
  };
  // Never let a developer's own database URL leak into the test server.
  delete env.SCHOLIA_DATABASE_URL;
  // The webhook tests rely on the default of a server on loopback: loopback receivers yes, private addresses no.
  delete env.SCHOLIA_WEBHOOKS_ALLOW_PRIVATE;
  if (process.env.SCHOLIA_TEST_DATABASE_URL) env.SCHOLIA_DATABASE_URL = process.env.SCHOLIA_TEST_DATABASE_URL;

  log(`starting server on 127.0.0.1:${port} (data dir ${dataDir}${env.SCHOLIA_DATABASE_URL ? ', external database' : ''})`);
  server = spawn(IS_WINDOWS ? 'npx.cmd' : 'npx', ['tsx', 'server/src/server.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: !IS_WINDOWS, // own process group, see killGroup()
  });
  server.stdout.on('data', (chunk) => {
    logStream.write(chunk);
    remember(serverOutput, chunk, 400);
    trackRequests(chunk);
  });
  server.stderr.on('data', (chunk) => {
    logStream.write(chunk);
    remember(serverOutput, chunk, 400);
    remember(serverStderrTail, chunk, 400);
  });
  server.once('exit', (code, signal) => logStream.end(`\n[server exited: ${code ?? signal}]\n`));
}

async function waitForServer(port) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  const url = `http://127.0.0.1:${port}/api/_status`;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`server exited during startup (${server.exitCode ?? server.signalCode})`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      return response.status; // any HTTP answer counts
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`server did not answer ${url} within ${STARTUP_TIMEOUT_MS / 1000}s`);
}

function printServerTail(reason) {
  const stderrLines = serverStderrTail.filter((line) => !line.startsWith('npm warn'));
  const lines = stderrLines.length > 0 ? stderrLines : serverOutput;
  const which = stderrLines.length > 0 ? 'stderr' : 'output (stderr had nothing but npm warnings)';
  console.error(`\n[sdk-tests] ${reason}; last ${Math.min(LOG_TAIL_LINES, lines.length)} lines of server ${which}:`);
  console.error(lines.slice(-LOG_TAIL_LINES).join('\n') || '(nothing)');
  if (failedRequests.length > 0) {
    console.error(`[sdk-tests] last ${failedRequests.length} requests answered with an error status (some are expected by tests):`);
    console.error(failedRequests.map((line) => `  ${line}`).join('\n'));
  }
  if (serverErrors.length > 0) {
    console.error('[sdk-tests] errors logged by the server:');
    console.error(serverErrors.map((line) => `  ${line}`).join('\n'));
  }
  keepData = true; // keep the data dir and full log of a failed run
  console.error(`[sdk-tests] full server log: ${serverLogPath}`);
  console.error('[sdk-tests] end of server output\n');
}

// ---------------------------------------------------------------------------------------------------------------
// pytest

function runPytest(port, extraArgs) {
  return new Promise((resolve) => {
    const env = {
      ...process.env,
      ARGILLA_API_URL: `http://127.0.0.1:${port}`,
      ARGILLA_API_KEY: API_KEY,
      PYTHONUNBUFFERED: '1',
      PYTHONDONTWRITEBYTECODE: '1',
      // The SDK imports huggingface_hub/datasets; keep them offline and out of the user's cache.
      HF_HUB_OFFLINE: '1',
      HF_DATASETS_OFFLINE: '1',
      HF_HOME: path.join(dataDir, 'hf-home'),
      TQDM_DISABLE: '1',
    };
    const args = ['-m', 'pytest', SDK_DIR, '-ra', '--color=no', '-p', 'no:cacheprovider', ...extraArgs];
    log(`running: python ${args.join(' ')}`);
    pytest = spawn(VENV_PYTHON, args, { cwd: SDK_DIR, env, stdio: 'inherit', detached: !IS_WINDOWS });
    const timer = setTimeout(() => {
      log(`pytest exceeded ${PYTEST_TIMEOUT_MS / 1000}s, killing it`);
      killGroup(pytest, 'SIGKILL');
    }, PYTEST_TIMEOUT_MS);
    pytest.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 1) : 1));
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const started = Date.now();
  ensureVenv();
  const port = await freePort();
  startServer(port);
  try {
    await waitForServer(port);
  } catch (error) {
    printServerTail(String(error.message ?? error));
    await stopServer();
    return 1;
  }
  log(`server is up after ${((Date.now() - started) / 1000).toFixed(1)}s`);

  let code = await runPytest(port, process.argv.slice(2));
  const serverDied = server.exitCode !== null || server.signalCode !== null;
  if (code === 5) {
    console.error('[sdk-tests] pytest collected no tests: treating as failure');
    code = 1;
  }
  if (code !== 0 || serverDied) {
    printServerTail(serverDied ? `server exited during the run (${server.exitCode ?? server.signalCode})` : `pytest failed (exit ${code})`);
    if (code === 0) code = 1;
  }
  await stopServer();
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)}s, exit code ${code}`);
  return code;
}

const exitCode = await main();
cleanupSync();
process.exit(exitCode);
