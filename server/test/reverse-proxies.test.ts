import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CHILD_OWNER, freePort, startChildServer, type ChildServer } from './reliability/child-server.js';
import { createScratchDatabase, type ScratchDatabase } from './test-server.js';

/**
 * The nginx and Caddy examples of docs/deployment.md, as written there (only the ports, the
 * certificate files and the site address are replaced), in front of two server instances on one
 * PostgreSQL database: one instance is killed with SIGKILL while clients keep reading through the
 * proxy, and not one request fails.
 *
 * The proxies run as this user, in the foreground, with their configuration, pid file, logs and
 * temporary files in a folder of their own, on a free loopback port; each is stopped after its test.
 */
const DEPLOYMENT_DOC = path.resolve(import.meta.dirname, '../../docs/deployment.md');
const adminUrl = process.env.SCHOLIA_TEST_DATABASE_URL?.startsWith('postgres') ? process.env.SCHOLIA_TEST_DATABASE_URL : undefined;

function binary(name: string): string | undefined {
  for (const folder of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin']) {
    const file = path.join(folder, name);
    if (folder && fs.existsSync(file)) return file;
  }
  return undefined;
}
const nginx = binary('nginx');
const caddy = binary('caddy');
const openssl = binary('openssl');

// Two instances need one database they share: these tests run in the PostgreSQL suite.
if (!adminUrl) console.warn('reverse proxy tests skipped: two instances need PostgreSQL (run with node scripts/with-postgres.mjs)');
for (const [name, found] of [['nginx', nginx && openssl], ['caddy', caddy]] as const) {
  if (adminUrl && !found) {
    console.warn(`\n!!! reverse proxy test for ${name} SKIPPED: ${name}${name === 'nginx' ? ' or openssl' : ''} is not installed (apt-get install ${name}) !!!\n`);
  }
}

/** The example block of docs/deployment.md in `language` that names this test. */
function documentedExample(language: 'nginx' | 'caddy'): string {
  const doc = fs.readFileSync(DEPLOYMENT_DOC, 'utf8');
  const match = new RegExp(`\`\`\`${language} tested-by=server/test/reverse-proxies\\.test\\.ts\\n([\\s\\S]*?)\`\`\``).exec(doc);
  if (!match) throw new Error(`docs/deployment.md has no ${language} example marked tested-by=server/test/reverse-proxies.test.ts`);
  return match[1]!;
}

/** `text` with each `from` replaced, failing when one is missing: the test must run the example as documented. */
function replaceAll(text: string, replacements: Array<[string | RegExp, string]>): string {
  return replacements.reduce((result, [from, to]) => {
    const found = typeof from === 'string' ? result.includes(from) : from.test(result);
    if (!found) throw new Error(`the documented example no longer has ${String(from)}`);
    return typeof from === 'string' ? result.split(from).join(to) : result.replace(from, to);
  }, text);
}

const running: ChildProcess[] = [];
const folders: string[] = [];
let scratch: ScratchDatabase | undefined;
const instances: ChildServer[] = [];

afterEach(async () => {
  for (const child of running.splice(0)) await stopProcess(child);
  for (const instance of instances.splice(0)) {
    await instance.stop();
    folders.push(instance.dataDir);
  }
});
afterAll(async () => {
  await scratch?.drop();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const stopped = await Promise.race([exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 10_000))]);
  if (!stopped) {
    child.kill('SIGKILL');
    await exited;
  }
}

function tempFolder(prefix: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

/** Two instances on the test's database, started one after the other. */
async function startInstances(): Promise<[ChildServer, ChildServer]> {
  scratch ??= await createScratchDatabase(adminUrl!);
  const env = { SCHOLIA_DATABASE_URL: scratch.url, SCHOLIA_TRUSTED_PROXIES: '127.0.0.1' };
  const first = await startChildServer({ env });
  instances.push(first);
  const second = await startChildServer({ env });
  instances.push(second);
  return [first, second];
}

const portOf = (instance: ChildServer) => new URL(instance.url).port;

/** Starts a proxy process and waits until a request through it reaches an instance. */
async function startProxy(command: string, args: string[], env: NodeJS.ProcessEnv, url: string, agent: http.Agent): Promise<() => string> {
  let output = '';
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`${path.basename(command)} exited (${child.exitCode}):\n${output}`);
    const answer = await get(url, agent);
    if (answer === 200) return () => output;
    if (attempt > 300) throw new Error(`${path.basename(command)} did not pass requests on (last answer ${answer}):\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The status of a GET of the owner's account, or the network error's text. */
function get(url: string, agent: http.Agent): Promise<number | string> {
  const client = url.startsWith('https:') ? https : http;
  return new Promise((resolve) => {
    const request = client.get(`${url}/api/v1/me`, { agent, headers: { 'X-Argilla-Api-Key': CHILD_OWNER.apiKey } }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
      response.once('error', (error) => resolve(error.message));
    });
    request.once('error', (error) => resolve(error.message));
  });
}

/**
 * Clients reading through the proxy: `before` requests, then the first instance is killed with
 * SIGKILL while requests are in flight, then `after` more. Returns every answer other than 200.
 */
async function readThroughAKill(url: string, agent: http.Agent, victim: ChildServer, before: number, after: number) {
  const failures: Array<number | string> = [];
  let sent = 0;
  let killed: Promise<void> | undefined;
  const client = async () => {
    while (sent < before + after) {
      sent++;
      if (sent === before) killed = victim.kill();
      const answer = await get(url, agent);
      if (answer !== 200) failures.push(answer);
    }
  };
  await Promise.all(Array.from({ length: 8 }, client));
  await killed;
  return failures;
}

/** Requests the instance logged answering: the proxy sent it some before it died. */
const answered = (instance: ChildServer) => instance.output().split('\n').filter((line) => line.includes('"url":"/api/v1/me"')).length;

describe.runIf(adminUrl)('the documented reverse proxies in front of two instances', () => {
  it.runIf(nginx && openssl)('nginx (the example as written) answers every read while one instance is killed', async () => {
    const folder = tempFolder('scholia-nginx-');
    const [victim, survivor] = await startInstances();
    const port = await freePort();
    const certificate = spawnSync(openssl!, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=labels.example.org',
      '-keyout', path.join(folder, 'key.pem'), '-out', path.join(folder, 'cert.pem')], { encoding: 'utf8' });
    expect(certificate.status, certificate.stderr).toBe(0);
    const site = replaceAll(documentedExample('nginx'), [
      ['127.0.0.1:6901', `127.0.0.1:${portOf(victim)}`],
      ['127.0.0.1:6902', `127.0.0.1:${portOf(survivor)}`],
      [/listen 443 /, `listen 127.0.0.1:${port} `],
      ['/etc/letsencrypt/live/labels.example.org/fullchain.pem', path.join(folder, 'cert.pem')],
      ['/etc/letsencrypt/live/labels.example.org/privkey.pem', path.join(folder, 'key.pem')],
    ]);
    const temp = (name: string) => path.join(folder, name);
    fs.writeFileSync(temp('nginx.conf'), [
      // As root nginx would hand its workers to `nobody`, who cannot read this folder.
      process.getuid?.() === 0 ? 'user root;' : '',
      'daemon off;',
      'worker_processes 1;',
      `pid ${temp('nginx.pid')};`,
      `error_log ${temp('error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${temp(kind)};`),
      site,
      '}',
    ].join('\n'));
    const url = `https://127.0.0.1:${port}`;
    const agent = new https.Agent({ keepAlive: true, rejectUnauthorized: false });
    await startProxy(nginx!, ['-p', folder, '-c', temp('nginx.conf'), '-e', temp('error.log')], process.env, url, agent);

    const failures = await readThroughAKill(url, agent, victim, 300, 700);
    console.log(`nginx: 1000 reads, ${failures.length} failed, the killed instance had answered ${answered(victim)}`);
    expect(failures).toEqual([]);
    expect(answered(victim)).toBeGreaterThan(0);
    agent.destroy();
  }, 120_000);

  it.runIf(caddy)('Caddy (the example as written) answers every read while one instance is killed', async () => {
    const folder = tempFolder('scholia-caddy-');
    const [victim, survivor] = await startInstances();
    const port = await freePort();
    const site = replaceAll(documentedExample('caddy'), [
      ['127.0.0.1:6901', `127.0.0.1:${portOf(victim)}`],
      ['127.0.0.1:6902', `127.0.0.1:${portOf(survivor)}`],
      // Plain HTTP on loopback: no certificate to fetch.
      [/^labels\.example\.org \{/m, `http://127.0.0.1:${port} {\n    bind 127.0.0.1`],
    ]);
    // No admin endpoint (port 2019 may be taken); Caddy's state goes to the test's folder.
    fs.writeFileSync(path.join(folder, 'Caddyfile'), `{\n    admin off\n}\n${site}`);
    const env = { PATH: process.env.PATH, HOME: folder, XDG_CONFIG_HOME: path.join(folder, 'config'), XDG_DATA_HOME: path.join(folder, 'data') };
    const url = `http://127.0.0.1:${port}`;
    const agent = new http.Agent({ keepAlive: true });
    await startProxy(caddy!, ['run', '--config', path.join(folder, 'Caddyfile'), '--adapter', 'caddyfile'], env, url, agent);

    const failures = await readThroughAKill(url, agent, victim, 300, 700);
    console.log(`Caddy: 1000 reads, ${failures.length} failed, the killed instance had answered ${answered(victim)}`);
    expect(failures).toEqual([]);
    expect(answered(victim)).toBeGreaterThan(0);
    agent.destroy();
  }, 120_000);
});
