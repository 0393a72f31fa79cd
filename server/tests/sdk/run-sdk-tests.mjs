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

import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { API_KEY, cleanupSync, createLog, ensureVenv, installCleanup, runPytest, startScholiaServer } from './harness.mjs';

const SDK_DIR = path.dirname(fileURLToPath(import.meta.url));
const PYTEST_TIMEOUT_MS = Number(process.env.SCHOLIA_SDK_TIMEOUT_S ?? 900) * 1000;

const log = createLog('sdk-tests');
installCleanup(log);

async function main() {
  const started = Date.now();
  const python = ensureVenv({ venvDir: path.join(SDK_DIR, '.venv'), requirements: path.join(SDK_DIR, 'requirements.txt'), log });
  const server = await startScholiaServer({ log, tag: 'sdk-tests' });
  try {
    await server.ready();
  } catch (error) {
    server.printTail(String(error.message ?? error));
    await server.stop();
    return 1;
  }
  log(`server is up after ${((Date.now() - started) / 1000).toFixed(1)}s`);

  const env = {
    ...process.env,
    ARGILLA_API_URL: server.url,
    ARGILLA_API_KEY: API_KEY,
    PYTHONUNBUFFERED: '1',
    PYTHONDONTWRITEBYTECODE: '1',
    // The SDK imports huggingface_hub/datasets; keep them offline and out of the user's cache.
    HF_HUB_OFFLINE: '1',
    HF_DATASETS_OFFLINE: '1',
    HF_HOME: path.join(server.dataDir, 'hf-home'),
    TQDM_DISABLE: '1',
  };
  const args = [SDK_DIR, '-ra', '--color=no', '-p', 'no:cacheprovider', ...process.argv.slice(2)];
  let code = await runPytest({ python, args, cwd: SDK_DIR, env, timeoutMs: PYTEST_TIMEOUT_MS, log });
  if (code === 5) {
    console.error('[sdk-tests] pytest collected no tests: treating as failure');
    code = 1;
  }
  if (code !== 0 || server.died()) {
    server.printTail(server.died() ? `server exited during the run (${server.exitStatus()})` : `pytest failed (exit ${code})`);
    if (code === 0) code = 1;
  }
  await server.stop();
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)}s, exit code ${code}`);
  return code;
}

const exitCode = await main();
cleanupSync();
process.exit(exitCode);
