import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';

/**
 * `npm run dev:remote` against a running Scholia started with SCHOLIA_REMOTE_OVERRIDES=true: an
 * owner points one remote at the dev server for their own browser, with a banner while it is on.
 * A server of its own, since the shared one runs without overrides (as production servers do).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const OWNER = { username: 'devowner', password: 'dev-owner-password' };

let dataDir: string;
let scholia: ChildProcess;
let scholiaUrl: string;
let devServer: ChildProcess;
let devOrigin: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once the process printed `marker` (it is ready), rejects if it exits first. */
function waitForOutput(child: ChildProcess, marker: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(marker)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before "${marker}":\n${output}`)));
  });
}

/** Resolves once `url` answers, rejects if the process exits first. */
async function waitForAnswer(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-e2e-dev-'));
  const port = await freePort();
  scholiaUrl = `http://127.0.0.1:${port}`;
  scholia = spawn(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'server/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env, SCHOLIA_PORT: String(port), SCHOLIA_HOST: '127.0.0.1', SCHOLIA_DATA_DIR: dataDir, SCHOLIA_LOG_LEVEL: 'warn',
      SCHOLIA_WEB_DIR: path.join(ROOT, 'dist', 'web'), SCHOLIA_OWNER_USERNAME: OWNER.username, SCHOLIA_OWNER_PASSWORD: OWNER.password,
      SCHOLIA_REMOTE_OVERRIDES: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForAnswer(`${scholiaUrl}/api/_status`, scholia);
  const devPort = await freePort();
  devOrigin = `http://localhost:${devPort}`;
  devServer = spawn(process.execPath, [path.join(ROOT, 'scripts/dev-remote.mjs'), 'mfe-home', '--scholia', scholiaUrl, '--port', String(devPort)], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'],
  });
  await waitForOutput(devServer, 'dev:remote: mfe-home on');
});

test.afterAll(async () => {
  await stop(devServer);
  await stop(scholia);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test("an owner's browser loads a remote from its dev server, with a banner that turns it off", async ({ page }) => {
  const token = (await (await fetch(`${scholiaUrl}/api/v1/token`, {
    method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(OWNER),
  })).json() as { access_token: string }).access_token;
  await page.goto(`${scholiaUrl}/no/such/page`);
  await page.evaluate(([key, entry, value]) => {
    localStorage.setItem('scholia.token', value);
    localStorage.setItem(key, JSON.stringify({ mfe_home: entry }));
  }, ['scholia.remoteOverrides', `${devOrigin}/remoteEntry.js`, token]);

  const fromDev: string[] = [];
  page.on('request', (request) => { if (request.url().startsWith(devOrigin)) fromDev.push(new URL(request.url()).pathname); });
  await page.goto(`${scholiaUrl}/`);
  const banner = page.getByTestId('remote-override-banner');
  await expect(banner).toContainText(`Development override: mfe_home → ${devOrigin}/remoteEntry.js`);
  await expect(page.getByTestId('datasets-count')).toBeVisible();
  expect(fromDev).toContain('/remoteEntry.js');

  await banner.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByTestId('datasets-count')).toBeVisible();
  await expect(banner).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('scholia.remoteOverrides'))).toBeNull();
});
