#!/usr/bin/env node
// Runs the argilla SDK's own Hub tests (argilla 2.8.0's tests/integration/test_export_dataset.py and
// test_import_features.py, read from its source distribution on PyPI, never kept in this repository) against a
// real Scholia server and the fake Hugging Face Hub (server/test/fake-hub).
//
//   node server/tests/sdk-hub/run-sdk-hub-tests.mjs [extra pytest args...]     (any cwd)
//   npm run test:sdk-hub -w @scholia/server -- -k upper_case
//
// Steps: create/refresh the virtualenv at tests/sdk-hub/.venv (requirements.txt); download the pinned sdist
// (upstream-tests.txt: version + sha256, checked by pip) and unpack its tests/integration/ into the venv once;
// start the server (SQLite in a temp dir) and `npm run fake-hub -- --port <free>`; run pytest with HF_ENDPOINT at
// the fake hub and HF_TOKEN / HF_TOKEN_ARGILLA_INTERNAL_TESTING set to the token it prints; then judge the JUnit
// report: any failure, error or skipped test fails the run (see pytest-report.mjs), so Hub tests that skip
// themselves for want of a token cannot pass unnoticed.
//
// Environment knobs: those of run-sdk-tests.mjs (PYTHON, SCHOLIA_TEST_DATABASE_URL, SCHOLIA_SDK_TIMEOUT_S (default
// 600 s here), SCHOLIA_SDK_KEEP_DATA=1, SCHOLIA_SDK_SKIP_INSTALL=1).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  API_KEY, IS_WINDOWS, REPO_ROOT, cleanupSync, createLog, ensureVenv, freePort, installCleanup, run, runPytest, spawnTracked,
  startScholiaServer, stopChild,
} from '../sdk/harness.mjs';
import { judgeRun, readJunitReport } from './pytest-report.mjs';

const HUB_DIR = path.dirname(fileURLToPath(import.meta.url));
const VENV_DIR = path.join(HUB_DIR, '.venv');
const UPSTREAM_PIN = path.join(HUB_DIR, 'upstream-tests.txt');
const UPSTREAM_DIR = path.join(VENV_DIR, 'argilla-tests');
const TEST_FILES = ['tests/integration/test_export_dataset.py', 'tests/integration/test_import_features.py'];
const PYTEST_TIMEOUT_MS = Number(process.env.SCHOLIA_SDK_TIMEOUT_S ?? 600) * 1000;
const HUB_STARTUP_TIMEOUT_MS = 60_000;

const log = createLog('sdk-hub-tests');
installCleanup(log);

/**
 * The SDK's tests/integration/ unpacked from the pinned sdist into UPSTREAM_DIR (again only when the pin changed).
 * Returns the folder to run pytest in (the sdist's root, so test ids read `tests/integration/...`).
 */
function ensureUpstreamTests(python) {
  const pin = fs.readFileSync(UPSTREAM_PIN, 'utf8');
  const stamp = path.join(UPSTREAM_DIR, '.pin');
  const wanted = pin.split('\n').find((line) => line && !line.startsWith('#'))?.trim() ?? '';
  const root = (name) => path.join(UPSTREAM_DIR, name);
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === wanted) {
    return root(fs.readdirSync(UPSTREAM_DIR).find((name) => name.startsWith('argilla-')));
  }
  log(`downloading ${wanted.split(' ')[0]} (source distribution) for its tests`);
  const download = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-sdk-hub-sdist-'));
  try {
    run(python, ['-m', 'pip', 'download', '--disable-pip-version-check', '--quiet', '--no-deps', '--no-binary', ':all:', '--require-hashes', '-r', UPSTREAM_PIN, '-d', download]);
    const [sdist] = fs.readdirSync(download).filter((name) => name.endsWith('.tar.gz'));
    if (!sdist) throw new Error(`pip downloaded no source distribution into ${download}`);
    fs.rmSync(UPSTREAM_DIR, { recursive: true, force: true });
    fs.mkdirSync(UPSTREAM_DIR, { recursive: true });
    // Only the integration tests; tarfile's `data` filter refuses links and paths that leave the folder.
    const extract = [
      'import sys, tarfile',
      'with tarfile.open(sys.argv[1]) as archive:',
      '    members = [m for m in archive.getmembers() if m.name.split("/")[1:3] == ["tests", "integration"]]',
      '    archive.extractall(sys.argv[2], members=members, filter="data")',
    ].join('\n');
    run(python, ['-c', extract, path.join(download, sdist), UPSTREAM_DIR]);
    const unpacked = root(sdist.replace(/\.tar\.gz$/, ''));
    for (const file of TEST_FILES) {
      if (!fs.existsSync(path.join(unpacked, file))) throw new Error(`${sdist} has no ${file}`);
    }
    fs.writeFileSync(stamp, `${wanted}\n`);
    return unpacked;
  } finally {
    fs.rmSync(download, { recursive: true, force: true });
  }
}

/** `npm run fake-hub -- --port <port>`, the documented command; resolves with the URL and token it prints. */
async function startFakeHub() {
  const port = await freePort();
  log(`starting the fake hub on 127.0.0.1:${port}`);
  const child = spawnTracked(IS_WINDOWS ? 'npm.cmd' : 'npm', ['run', '--silent', 'fake-hub', '--', '--port', String(port)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const printed = {};
  const lines = readline.createInterface({ input: child.stdout });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the fake hub printed no URL and token within ${HUB_STARTUP_TIMEOUT_MS / 1000}s`)), HUB_STARTUP_TIMEOUT_MS);
    child.once('exit', (code, signal) => reject(new Error(`the fake hub exited during startup (${code ?? signal})`)));
    lines.on('line', (line) => {
      const match = /^(FAKE_HUB_URL|FAKE_HUB_TOKEN)=(.+)$/.exec(line.trim());
      if (match) printed[match[1]] = match[2];
      if (printed.FAKE_HUB_URL && printed.FAKE_HUB_TOKEN) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { url: printed.FAKE_HUB_URL, token: printed.FAKE_HUB_TOKEN, died: () => child.exitCode !== null || child.signalCode !== null, stop: () => stopChild(child) };
}

async function main() {
  const started = Date.now();
  const python = ensureVenv({ venvDir: VENV_DIR, requirements: path.join(HUB_DIR, 'requirements.txt'), log });
  const testsDir = ensureUpstreamTests(python);
  const server = await startScholiaServer({ log, tag: 'sdk-hub-tests' });
  const hub = await startFakeHub();
  try {
    await server.ready();
  } catch (error) {
    server.printTail(String(error.message ?? error));
    return 1;
  }
  log(`server and fake hub are up after ${((Date.now() - started) / 1000).toFixed(1)}s`);

  const env = {
    ...process.env,
    ARGILLA_API_URL: server.url,
    ARGILLA_API_KEY: API_KEY,
    HF_ENDPOINT: hub.url,
    HF_TOKEN: hub.token,
    HF_TOKEN_ARGILLA_INTERNAL_TESTING: hub.token,
    SCHOLIA_DATASETS_SERVER_URL: hub.url,
    HF_HOME: path.join(server.dataDir, 'hf-home'),
    HF_HUB_DISABLE_TELEMETRY: '1',
    PYTHONPATH: [HUB_DIR, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter),
    PYTHONUNBUFFERED: '1',
    PYTHONDONTWRITEBYTECODE: '1',
    TQDM_DISABLE: '1',
  };
  delete env.HF_HUB_OFFLINE;
  delete env.HF_DATASETS_OFFLINE;
  const junit = path.join(server.dataDir, 'sdk-hub-tests.xml');
  const args = [...TEST_FILES, '-p', 'hub_stand_in', '-p', 'no:cacheprovider', '-ra', '--color=no', '--disable-warnings', `--junitxml=${junit}`, ...process.argv.slice(2)];
  const pytestCode = await runPytest({ python, args, cwd: testsDir, env, timeoutMs: PYTEST_TIMEOUT_MS, log });
  let code = pytestCode;

  if (fs.existsSync(junit)) {
    const { counts, problems } = judgeRun(readJunitReport(fs.readFileSync(junit, 'utf8')));
    log(`argilla SDK Hub tests: ${counts.passed} passed, ${counts.skipped} skipped, ${counts.failed} failed, ${counts.error} errors`);
    if (problems.length > 0) {
      console.error(`[sdk-hub-tests] the run fails:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
      if (code === 0) code = 1;
    }
  } else {
    console.error('[sdk-hub-tests] pytest wrote no report');
    if (code === 0) code = 1;
  }
  if (hub.died()) {
    console.error('[sdk-hub-tests] the fake hub exited during the run');
    if (code === 0) code = 1;
  }
  // Skips alone say nothing about the server; failures and errors may.
  if (pytestCode !== 0 || server.died()) {
    server.printTail(server.died() ? `server exited during the run (${server.exitStatus()})` : `pytest failed (exit ${pytestCode})`);
    if (code === 0) code = 1;
  }
  await Promise.all([server.stop(), hub.stop()]);
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)}s, exit code ${code}`);
  return code;
}

const exitCode = await main();
cleanupSync();
process.exit(exitCode);
