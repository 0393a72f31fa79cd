import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { baseUrl, ownerApi, signInAs } from '../fixtures/api.js';
import { createSettingsDataset } from '../fixtures/settings-dataset.js';

/**
 * A team ships its remote on its own: mfe-settings built alone (npm run build:remote), served by
 * a static host on another origin, registered in SCHOLIA_REMOTES_FILE of the running server.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

interface RemoteRelease {
  folder: string;
  /** The URL the registrations file names: the release's mf-manifest.json on the static host. */
  manifestUrl: string;
}

let out: string;
let cdn: http.Server;
let cdnOrigin: string;
/** The build, a copy claiming a newer version (to roll back from) and one built for contract 2.x. */
let release: RemoteRelease;
let newer: RemoteRelease;
let incompatible: RemoteRelease;

function remotesFile(): string {
  const file = process.env.SCHOLIA_E2E_REMOTES_FILE;
  if (!file) throw new Error('SCHOLIA_E2E_REMOTES_FILE is not set: run through playwright.config.ts');
  return file;
}

/** What an operator does: a new registrations file renamed over the old one, no restart. */
function register(remotes: Record<string, string>): void {
  fs.writeFileSync(`${remotesFile()}.next`, JSON.stringify(remotes));
  fs.renameSync(`${remotesFile()}.next`, remotesFile());
}

/** A plain static host (a CDN): the files of `root`, CORS open so the shell may read the manifest. */
function startStaticHost(root: string): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const file = path.join(root, path.normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)));
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return response.writeHead(404).end();
    const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'application/json';
    response.writeHead(200, { 'Content-Type': type, 'Access-Control-Allow-Origin': '*' }).end(fs.readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, 'localhost', () => resolve(server)));
}

/** A copy of the built release under another version folder, its remote.json changed by `edit`. */
function copyRelease(name: string, edit: (info: Record<string, unknown>) => void): RemoteRelease {
  const folder = path.join(path.dirname(release.folder), name);
  fs.cpSync(release.folder, folder, { recursive: true });
  const infoFile = path.join(folder, 'remote.json');
  const info = JSON.parse(fs.readFileSync(infoFile, 'utf8')) as Record<string, unknown>;
  edit(info);
  fs.writeFileSync(infoFile, JSON.stringify(info));
  return { folder, manifestUrl: `${cdnOrigin}/${path.relative(out, folder)}/mf-manifest.json` };
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-remote-release-'));
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-remote.mjs'), 'mfe-settings', '--out', out], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build:remote failed\n${build.stdout}${build.stderr}`);
  const [version] = fs.readdirSync(path.join(out, 'mfe-settings'));
  cdn = await startStaticHost(out);
  cdnOrigin = `http://localhost:${(cdn.address() as AddressInfo).port}`;
  release = { folder: path.join(out, 'mfe-settings', version), manifestUrl: `${cdnOrigin}/mfe-settings/${version}/mf-manifest.json` };
  newer = copyRelease('9.9.9-newer', (info) => { info.version = '9.9.9'; });
  incompatible = copyRelease('0.1.0-contract2', (info) => { info.contract = '2.0.0'; });
});

test.afterAll(async () => {
  register({});
  await new Promise((resolve) => cdn?.close(resolve));
  if (out) fs.rmSync(out, { recursive: true, force: true });
});

test.afterEach(() => register({}));

/** The JavaScript files of the release's `./App` expose, from its manifest. */
function appFiles(of: RemoteRelease): string[] {
  type Manifest = { exposes: { name: string; assets: { js: { sync: string[] } } }[] };
  const manifest = JSON.parse(fs.readFileSync(path.join(of.folder, 'mf-manifest.json'), 'utf8')) as Manifest;
  const files = manifest.exposes.find((e) => e.name === 'App')?.assets.js.sync ?? [];
  if (files.length === 0) throw new Error(`no ./App files in ${of.folder}`);
  return files;
}

/** Every file the page loads from the static host. */
function cdnRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(cdnOrigin)) urls.push(request.url().slice(cdnOrigin.length));
  });
  return urls;
}

async function registered(): Promise<Record<string, { entry: string; source: string; version?: string; contract?: string }>> {
  return (await fetch(`${baseUrl()}/remotes.json`)).json() as never;
}

test('a remote built alone and served from another origin is registered at run time and edits guidelines', async ({ page }) => {
  const ds = await createSettingsDataset();
  const version = path.basename(release.folder);
  register({ mfe_settings: release.manifestUrl });
  const listed = await registered();
  expect(listed.mfe_settings).toMatchObject({ entry: `${cdnOrigin}/mfe-settings/${version}/remoteEntry.js`, source: 'SCHOLIA_REMOTES_FILE', version: '0.1.0', contract: '1.1.0' });
  expect(listed.mfe_home).toMatchObject({ entry: '/remotes/mfe-home/remoteEntry.js', source: 'build' });

  const fromCdn = cdnRequests(page);
  await signInAs(page, ds.admin.username, ds.admin.password);
  const settingsPage = await page.goto(`${baseUrl()}/dataset/${ds.id}/settings`);
  // The policy lets the page load scripts and styles from the registered origin.
  const policy = (await settingsPage!.allHeaders())['content-security-policy'];
  expect(policy).toContain(`script-src 'self' ${cdnOrigin}`);
  expect(policy).toContain(`style-src 'self' 'unsafe-inline' ${cdnOrigin}`);

  const guidelines = page.getByTestId('guidelines-form');
  await guidelines.getByLabel('Annotation guidelines', { exact: true }).fill('Rules from the team release');
  await guidelines.getByRole('button', { name: 'Save Annotation guidelines' }).click();
  await expect(guidelines.getByText(/^Saved at/)).toBeVisible();
  expect((await ownerApi<{ guidelines: string }>('GET', `datasets/${ds.id}`)).guidelines).toBe('Rules from the team release');
  expect(fromCdn).toContain(`/mfe-settings/${version}/remoteEntry.js`);
  for (const file of appFiles(release)) expect(fromCdn).toContain(`/mfe-settings/${version}/${file}`);
});

test('a remote built against another contract major is not mounted: its area says so, the rest works', async ({ page }) => {
  const ds = await createSettingsDataset();
  register({ mfe_settings: incompatible.manifestUrl });
  expect((await registered()).mfe_settings).toMatchObject({ version: '0.1.0', contract: '2.0.0' });

  const fromCdn = cdnRequests(page);
  const warnings: string[] = [];
  page.on('console', (message) => { if (message.type() === 'warning') warnings.push(message.text()); });
  await signInAs(page, ds.admin.username, ds.admin.password);
  const reported = page.waitForRequest((request) => request.url() === `${baseUrl()}/api/v1/client-errors` && request.method() === 'POST');
  await page.goto(`${baseUrl()}/dataset/${ds.id}/settings`);
  const area = page.getByRole('status').filter({ hasText: 'This part of Scholia is being updated' });
  await expect(area).toBeVisible();
  await expect(area).toContainText('mfe_settings 0.1.0');
  await expect(area).toContainText('built for 2.0.0, this Scholia has 1.1.0');
  expect(JSON.parse((await reported).postData() ?? '{}')).toMatchObject({ kind: 'remote-incompatible', remote: 'mfe_settings' });
  expect(warnings.some((text) => text.includes('mfe_settings 0.1.0 was built against @scholia/shared contract 2.0.0'))).toBe(true);
  // The shell and its navigation still work, and so do the other remotes: home, then annotation.
  await page.getByLabel('Home').click();
  await expect(page).toHaveURL(`${baseUrl()}/`);
  await page.getByTestId('dataset-item').locator('a', { hasText: ds.name }).click();
  await expect(page).toHaveURL(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  await expect(page.getByTestId('annotation-dataset-name')).toHaveText(ds.name);
  // Its code was never fetched, not even as a preload.
  expect(fromCdn.filter((url) => appFiles(incompatible).some((file) => url.endsWith(`/${file}`)))).toEqual([]);
});

test('pointing the registrations file back at the previous release rolls back without a restart', async ({ page }) => {
  const ds = await createSettingsDataset();
  register({ mfe_settings: newer.manifestUrl });
  expect((await registered()).mfe_settings.version).toBe('9.9.9');
  const fromCdn = cdnRequests(page);
  await signInAs(page, ds.admin.username, ds.admin.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/settings`);
  await expect(page.getByTestId('guidelines-form')).toBeVisible();
  expect(fromCdn).toContain('/mfe-settings/9.9.9-newer/remoteEntry.js');

  register({ mfe_settings: release.manifestUrl });
  expect((await registered()).mfe_settings.version).toBe('0.1.0');
  fromCdn.length = 0;
  await page.reload();
  await expect(page.getByTestId('guidelines-form')).toBeVisible();
  expect(fromCdn).toContain(`/${path.relative(out, release.folder)}/remoteEntry.js`);
  expect(fromCdn.filter((url) => url.includes('9.9.9-newer'))).toEqual([]);
});
