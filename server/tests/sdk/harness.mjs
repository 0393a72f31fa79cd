// What the runners of Python suites against a real Scholia server share: a pinned virtualenv, a throw-away
// server on a free port (with its log and the requests that failed), child processes in their own process
// groups so that npx -> node(tsx) -> children all die together, and pytest under a time limit.
// Only Node built-ins are used.

import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const IS_WINDOWS = process.platform === 'win32';
/** The owner API key of the test server; the SDK reads it from ARGILLA_API_KEY. */
export const API_KEY = 'argilla.apikey';

const STARTUP_TIMEOUT_MS = 90_000;
const LOG_TAIL_LINES = 40;

export const createLog = (tag) => (message) => console.log(`[${tag}] ${message}`);

// ---------------------------------------------------------------------------------------------------------------
// Children and cleanup

const children = new Set();
const cleanups = [];
let cleanedUp = false;

/** Spawns a child in its own process group (see killGroup), killed when this process ends. */
export function spawnTracked(command, args, options) {
  const child = spawn(command, args, { ...options, detached: !IS_WINDOWS });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function killGroup(child, signal) {
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

/** SIGTERM, then SIGKILL after 5 s; resolves once the child has exited. */
export async function stopChild(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  killGroup(child, 'SIGTERM');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Kills every tracked child and runs the registered cleanups, once. */
export function cleanupSync() {
  if (cleanedUp) return;
  cleanedUp = true;
  for (const child of children) killGroup(child, 'SIGKILL');
  for (const cleanup of cleanups) cleanup();
}

/** Makes signals, uncaught errors and exit end the children and clean up. */
export function installCleanup(log) {
  process.on('exit', cleanupSync);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      log(`received ${signal}, stopping`);
      cleanupSync();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
  for (const event of ['uncaughtException', 'unhandledRejection']) {
    process.on(event, (error) => {
      console.error(error);
      cleanupSync();
      process.exit(1);
    });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Virtualenv

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

/**
 * Creates the virtualenv at `venvDir` if missing and pip-installs `requirements` when they changed since the last
 * install (a hash stamp in the venv). PYTHON picks the interpreter; SCHOLIA_SDK_SKIP_INSTALL=1 skips installing.
 * Returns the venv's python.
 */
export function ensureVenv({ venvDir, requirements, log }) {
  const python = IS_WINDOWS ? path.join(venvDir, 'Scripts', 'python.exe') : path.join(venvDir, 'bin', 'python');
  const stamp = path.join(venvDir, '.scholia-requirements.sha256');
  if (!fs.existsSync(python)) {
    const base = process.env.PYTHON || (IS_WINDOWS ? 'python' : 'python3');
    log(`creating virtualenv at ${path.relative(REPO_ROOT, venvDir)} with ${base}`);
    run(base, ['-m', 'venv', venvDir]);
  }
  const wanted = crypto.createHash('sha256').update(fs.readFileSync(requirements)).digest('hex');
  const installed = fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8').trim() : '';
  if (installed === wanted) return python;
  if (process.env.SCHOLIA_SDK_SKIP_INSTALL === '1') {
    log('requirements changed but SCHOLIA_SDK_SKIP_INSTALL=1: not installing');
    return python;
  }
  log(`installing the pinned requirements of ${path.relative(REPO_ROOT, requirements)}`);
  run(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--quiet', '-r', requirements]);
  fs.writeFileSync(stamp, `${wanted}\n`);
  return python;
}

// ---------------------------------------------------------------------------------------------------------------
// Server

export function freePort() {
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

/**
 * Starts `tsx server/src/server.ts` on a free port of 127.0.0.1 with a throw-away data dir (SQLite inside it, or
 * SCHOLIA_TEST_DATABASE_URL) and owner `argilla` / API_KEY. The data dir and server log are removed at cleanup
 * unless SCHOLIA_SDK_KEEP_DATA=1 or printTail() was called (a failed run keeps them and says where).
 */
export async function startScholiaServer({ log, tag }) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `scholia-${tag}-`));
  const logPath = path.join(dataDir, 'server.log');
  let keepData = process.env.SCHOLIA_SDK_KEEP_DATA === '1';
  cleanups.push(() => {
    if (!keepData) {
      try {
        fs.rmSync(dataDir, { recursive: true, force: true });
      } catch {
        /* best effort */
      }
    } else {
      log(`kept data dir ${dataDir} (server log: ${logPath})`);
    }
  });

  const logStream = fs.createWriteStream(logPath);
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

  const output = []; // ring buffer of recent stdout/stderr lines
  const stderrTail = [];
  // The server logs JSON lines (pino) on stdout: remember which requests answered >= 400 or logged errors.
  const pendingRequests = new Map(); // reqId -> "METHOD url"
  const failedRequests = [];
  const serverErrors = [];
  let partialStdout = '';
  const trackRequests = (chunk) => {
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
  };

  log(`starting server on 127.0.0.1:${port} (data dir ${dataDir}${env.SCHOLIA_DATABASE_URL ? ', external database' : ''})`);
  const child = spawnTracked(IS_WINDOWS ? 'npx.cmd' : 'npx', ['tsx', 'server/src/server.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk) => {
    logStream.write(chunk);
    remember(output, chunk, 400);
    trackRequests(chunk);
  });
  child.stderr.on('data', (chunk) => {
    logStream.write(chunk);
    remember(output, chunk, 400);
    remember(stderrTail, chunk, 400);
  });
  child.once('exit', (code, signal) => logStream.end(`\n[server exited: ${code ?? signal}]\n`));

  const died = () => child.exitCode !== null || child.signalCode !== null;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    died,
    exitStatus: () => child.exitCode ?? child.signalCode,
    /** Resolves once GET /api/_status answers at all; rejects if the server exits or takes too long. */
    async ready() {
      const deadline = Date.now() + STARTUP_TIMEOUT_MS;
      const url = `http://127.0.0.1:${port}/api/_status`;
      while (Date.now() < deadline) {
        if (died()) throw new Error(`server exited during startup (${child.exitCode ?? child.signalCode})`);
        try {
          const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
          await response.arrayBuffer();
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
      throw new Error(`server did not answer ${url} within ${STARTUP_TIMEOUT_MS / 1000}s`);
    },
    stop: () => stopChild(child),
    /** Prints why the run failed with the server's last lines, failed requests and errors; keeps the data dir. */
    printTail(reason) {
      const stderrLines = stderrTail.filter((line) => !line.startsWith('npm warn'));
      const lines = stderrLines.length > 0 ? stderrLines : output;
      const which = stderrLines.length > 0 ? 'stderr' : 'output (stderr had nothing but npm warnings)';
      console.error(`\n[${tag}] ${reason}; last ${Math.min(LOG_TAIL_LINES, lines.length)} lines of server ${which}:`);
      console.error(lines.slice(-LOG_TAIL_LINES).join('\n') || '(nothing)');
      if (failedRequests.length > 0) {
        console.error(`[${tag}] last ${failedRequests.length} requests answered with an error status (some are expected by tests):`);
        console.error(failedRequests.map((line) => `  ${line}`).join('\n'));
      }
      if (serverErrors.length > 0) {
        console.error(`[${tag}] errors logged by the server:`);
        console.error(serverErrors.map((line) => `  ${line}`).join('\n'));
      }
      keepData = true;
      console.error(`[${tag}] full server log: ${logPath}`);
      console.error(`[${tag}] end of server output\n`);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// pytest

/** Runs `python -m pytest args` with output inherited; resolves with its exit code (killed after timeoutMs). */
export function runPytest({ python, args, cwd, env, timeoutMs, log }) {
  return new Promise((resolve) => {
    log(`running: python -m pytest ${args.join(' ')}`);
    const pytest = spawnTracked(python, ['-m', 'pytest', ...args], { cwd, env, stdio: 'inherit' });
    const timer = setTimeout(() => {
      log(`pytest exceeded ${timeoutMs / 1000}s, killing it`);
      killGroup(pytest, 'SIGKILL');
    }, timeoutMs);
    pytest.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 1) : 1));
    });
  });
}
