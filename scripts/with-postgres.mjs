#!/usr/bin/env node
// Runs a command against a throw-away local PostgreSQL.
//
//   node scripts/with-postgres.mjs <command> [args...]
//   e.g. node scripts/with-postgres.mjs npm run test -w @scholia/server
//
// When SCHOLIA_TEST_DATABASE_URL already names a postgres:// database, the command just runs with it.
// Otherwise: initdb a temp cluster from Debian's packages (/usr/lib/postgresql/<ver>/bin, or PG_BIN),
// start it on a free loopback port (fsync off: test data only), create database `scholia`, run the
// command with SCHOLIA_TEST_DATABASE_URL=postgres://scholia@127.0.0.1:<port>/scholia, then stop the
// server and remove the cluster. Exits with the command's code. As root, initdb/pg_ctl run as the
// `postgres` OS user (PostgreSQL refuses to run as root). Only Node built-ins are used.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';

const log = (message) => console.log(`[with-postgres] ${message}`);
const command = process.argv.slice(2);
if (command.length === 0) {
  console.error('usage: node scripts/with-postgres.mjs <command> [args...]');
  process.exit(2);
}

/** The command's process, once started. */
let child = null;
// A signal stops the command first, then (below) the cluster.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child?.kill(signal));

if (process.env.SCHOLIA_TEST_DATABASE_URL?.startsWith('postgres')) {
  log('SCHOLIA_TEST_DATABASE_URL is set: using that database');
  process.exit(await runCommand(process.env.SCHOLIA_TEST_DATABASE_URL));
}

function findBinDir() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    console.error('[with-postgres] no PostgreSQL found under /usr/lib/postgresql (apt-get install postgresql) and PG_BIN unset');
    process.exit(2);
  }
  return path.join(root, versions[0], 'bin');
}

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

const isRoot = process.getuid?.() === 0;
/** Runs a PostgreSQL binary, as the `postgres` user when we are root. */
function pgRun(bin, args, options = {}) {
  const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const result = spawnSync(file, argv, { encoding: 'utf8', cwd: tempDir, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${path.basename(bin)} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

function runCommand(databaseUrl) {
  return new Promise((resolve) => {
    child = spawn(command[0], command.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, SCHOLIA_TEST_DATABASE_URL: databaseUrl },
    });
    child.once('error', (error) => {
      console.error(error);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 1) : 1)));
  });
}

const binDir = findBinDir();
const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-pg-'));
const dataDir = path.join(tempDir, 'data');
const socketDir = tempDir;
if (isRoot) {
  const id = (flag) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  fs.chownSync(tempDir, id('-u'), id('-g'));
}
let started = false;

function cleanup() {
  if (started) {
    try {
      pgRun(path.join(binDir, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], { stdio: 'ignore' });
    } catch {
      /* already stopped */
    }
    started = false;
  }
  fs.rmSync(tempDir, { recursive: true, force: true });
}
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    cleanup();
    process.exit(128 + os.constants.signals[signal]);
  });
}

let code = 1;
try {
  const port = await freePort();
  log(`initdb ${dataDir} (${binDir})`);
  pgRun(path.join(binDir, 'initdb'), ['-D', dataDir, '-U', 'scholia', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  const options = [
    `-p ${port}`,
    "-c listen_addresses='127.0.0.1'",
    `-c unix_socket_directories='${socketDir}'`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
    '-c shared_buffers=128MB',
  ].join(' ');
  pgRun(path.join(binDir, 'pg_ctl'), ['-D', dataDir, '-l', path.join(tempDir, 'server.log'), '-o', options, '-w', '-t', '60', 'start'], {
    stdio: 'ignore',
  });
  started = true;
  pgRun(path.join(binDir, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'scholia', 'scholia']);
  const url = `postgres://scholia@127.0.0.1:${port}/scholia`;
  log(`PostgreSQL ready at ${url}`);
  code = await runCommand(url);
} catch (error) {
  console.error(error);
  const serverLog = path.join(tempDir, 'server.log');
  if (fs.existsSync(serverLog)) console.error(fs.readFileSync(serverLog, 'utf8').split('\n').slice(-30).join('\n'));
  code = 1;
}
cleanup();
process.exit(code);
