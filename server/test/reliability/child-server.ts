import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptSettings } from '../start-script.js';

/**
 * The real server (`src/server.ts`) as a child process, the way an install runs it: its own data
 * folder, a free loopback port, the first owner from env vars. Used by the durability (SIGKILL),
 * log-secrecy and soak checks. Runs `node --import tsx` directly so a signal reaches the server
 * itself, not an npx wrapper.
 */
export const CHILD_OWNER = { username: 'owner', password: 'owner-password-1', apiKey: 'child-owner-api-key-1f3b9c' };

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ChildServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGKILL: no shutdown hook runs. */
  kill(): Promise<void>;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as net.AddressInfo).port;
      probe.close(() => resolve(port));
    });
  });
}

export function tempDataDir(prefix = 'scholia-rel-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface ChildServerOptions {
  dataDir?: string;
  env?: Record<string, string>;
  /** Run the compiled server as `npm start` runs it (its node flags and memory settings; build it first) instead of the sources. */
  compiled?: boolean;
}

/** `npm start`'s environment and node flags before the compiled entry, then BENCH_SERVER_NODE_ARGS (a bench's profiling flags). */
function compiledStart(): { env: Record<string, string>; args: string[] } {
  const { env, nodeArgs } = startScriptSettings();
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  return { env, args: [...nodeArgs, ...extra, 'dist/server.js'] };
}

function spawnServer(options: ChildServerOptions, dataDir: string, port: number, user?: { uid: number; gid: number }): ChildProcess {
  const start = options.compiled ? compiledStart() : { env: {}, args: ['--import', 'tsx', 'src/server.ts'] };
  return spawn(process.execPath, start.args, {
    cwd: serverDir,
    env: {
      ...start.env,
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      SCHOLIA_DATA_DIR: dataDir,
      SCHOLIA_PORT: String(port),
      SCHOLIA_HOST: '127.0.0.1',
      SCHOLIA_OWNER_USERNAME: CHILD_OWNER.username,
      SCHOLIA_OWNER_PASSWORD: CHILD_OWNER.password,
      SCHOLIA_OWNER_API_KEY: CHILD_OWNER.apiKey,
      SCHOLIA_LOG_LEVEL: 'info',
      SCHOLIA_HUB_URL: 'http://127.0.0.1:9',
      SCHOLIA_DATASETS_SERVER_URL: 'http://127.0.0.1:9',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  });
}

/**
 * Starts the server expecting it to refuse to start: resolves with its exit code and output once
 * it exits. `user` runs it as another account (the test runner must be root).
 */
export async function runChildServerToExit(
  options: ChildServerOptions & { user?: { uid: number; gid: number }; timeoutMs?: number } = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawnServer(options, options.dataDir ?? tempDataDir(), await freePort(), options.user);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('close', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, output };
}

export async function startChildServer(options: ChildServerOptions = {}): Promise<ChildServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  const port = await freePort();
  let output = '';
  const child = spawnServer(options, dataDir, port);
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (!running()) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/api/_status`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    dataDir,
    process: child,
    output: () => output,
    async kill() {
      if (running()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (running()) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (running()) child.kill('SIGKILL');
      await exited;
    },
  };
}
