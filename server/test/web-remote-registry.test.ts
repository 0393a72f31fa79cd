import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.js';
import { securityHeadersPlugin } from '../src/plugins/external/security-headers.js';
import { webPlugin } from '../src/plugins/external/web.js';
import { createRemoteRegistry } from '../src/remotes/remote-registry.js';

const info = (version: string, contract = '1.0.0') => JSON.stringify({ name: 'mfe_settings', version, buildId: `b${version}`, contract, shared: { react: '19.3.1' } });
const manifest = (publicPath = 'auto') => JSON.stringify({
  metaData: { publicPath, remoteEntry: { name: 'remoteEntry.js', path: '' } },
  exposes: [{ name: 'App', assets: { js: { sync: ['app.1.js'] }, css: { sync: ['app.1.css'] } } }],
});

/** A static host on its own loopback port: a team's CDN. */
async function startStaticHost(files: Record<string, string>): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const body = files[request.url ?? ''];
    response.writeHead(body === undefined ? 404 : 200, { 'Content-Type': 'application/json' }).end(body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('remotes registered at run time', () => {
  let folder: string;
  let webDir: string;
  let remotesFile: string;
  let cdn: Awaited<ReturnType<typeof startStaticHost>>;
  let app: FastifyInstance;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-remotes-'));
    webDir = path.join(folder, 'web');
    const files: Record<string, string> = {
      'index.html': '<!doctype html><html><head></head><body></body></html>',
      'remotes.json': JSON.stringify({ mfe_home: '/remotes/mfe-home/remoteEntry.js', mfe_settings: '/remotes/mfe-settings/remoteEntry.js' }),
      'remotes/mfe-home/remote.json': info('0.1.0'),
      'remotes/mfe-settings/remote.json': info('0.1.0'),
    };
    for (const [name, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(webDir, name)), { recursive: true });
      fs.writeFileSync(path.join(webDir, name), content);
    }
    cdn = await startStaticHost({
      '/mfe-settings/0.2.0/mf-manifest.json': manifest(),
      '/mfe-settings/0.2.0/remote.json': info('0.2.0'),
      '/mfe-settings/0.3.0/remoteEntry.js': '',
      '/mfe-settings/0.3.0/remote.json': info('0.3.0', '2.0.0'),
    });
    remotesFile = path.join(folder, 'remotes.json');
    fs.writeFileSync(remotesFile, '{}');
    // What server.ts does: the settings as read and checked from the environment.
    const config = readConfig({ SCHOLIA_REMOTES: JSON.stringify({ mfe_home: '/remotes/mfe-home/remoteEntry.js' }), SCHOLIA_REMOTES_FILE: remotesFile });
    const remotes = createRemoteRegistry({ webDir, registrations: config.remotes, file: config.remotesFile, log: Fastify().log });
    app = Fastify();
    await app.register(securityHeadersPlugin, { frameAncestors: ["'self'"], remoteOrigins: () => remotes.origins() });
    await app.register(webPlugin, { webDir, remotes });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await cdn.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  afterEach(() => fs.writeFileSync(remotesFile, '{}'));

  /** Rewrites the registrations file the way a deploy does: a new file renamed over the old one. */
  function register(registrations: Record<string, string>): void {
    fs.writeFileSync(`${remotesFile}.next`, JSON.stringify(registrations));
    fs.renameSync(`${remotesFile}.next`, remotesFile);
  }

  const scriptSrc = (response: { headers: Record<string, unknown> }) =>
    String(response.headers['content-security-policy']).split(';').find((d) => d.startsWith('script-src'));

  it('lists the built remotes with their versions and sources', async () => {
    const response = await app.inject({ method: 'GET', url: '/remotes.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.json()).toEqual({
      mfe_home: { entry: '/remotes/mfe-home/remoteEntry.js', registered: '/remotes/mfe-home/remoteEntry.js', source: 'SCHOLIA_REMOTES', version: '0.1.0', buildId: 'b0.1.0', contract: '1.0.0', shared: { react: '19.3.1' } },
      mfe_settings: { entry: '/remotes/mfe-settings/remoteEntry.js', registered: '/remotes/mfe-settings/remoteEntry.js', source: 'build', version: '0.1.0', buildId: 'b0.1.0', contract: '1.0.0', shared: { react: '19.3.1' } },
    });
    expect(scriptSrc(response)).toBe("script-src 'self' ");
  });

  it('follows the registrations file without a restart: a manifest on another origin, its CSP and preloads, then a rollback', async () => {
    register({ mfe_settings: `${cdn.origin}/mfe-settings/0.2.0/mf-manifest.json` });
    const listed = (await app.inject({ method: 'GET', url: '/remotes.json' })).json();
    expect(listed.mfe_settings).toMatchObject({
      entry: `${cdn.origin}/mfe-settings/0.2.0/remoteEntry.js`, registered: `${cdn.origin}/mfe-settings/0.2.0/mf-manifest.json`,
      source: 'SCHOLIA_REMOTES_FILE', version: '0.2.0', contract: '1.0.0',
    });
    expect(listed.mfe_home.version).toBe('0.1.0');

    const page = await app.inject({ method: 'GET', url: '/dataset/1/settings' });
    expect(scriptSrc(page)).toBe(`script-src 'self' ${cdn.origin}`);
    expect(String(page.headers['content-security-policy'])).toContain(`style-src 'self' 'unsafe-inline' ${cdn.origin}`);
    const boot = JSON.parse(page.body.match(/<meta name="scholia-boot" content="([^"]*)">/)![1].replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
    expect(boot.remotes.mfe_settings.entry).toBe(`${cdn.origin}/mfe-settings/0.2.0/remoteEntry.js`);
    expect(boot.app.mfe_settings).toEqual([`${cdn.origin}/mfe-settings/0.2.0/app.1.js`, `${cdn.origin}/mfe-settings/0.2.0/app.1.css`]);

    register({});
    const rolledBack = await app.inject({ method: 'GET', url: '/remotes.json' });
    expect(rolledBack.json().mfe_settings).toMatchObject({ entry: '/remotes/mfe-settings/remoteEntry.js', source: 'build', version: '0.1.0' });
    expect(scriptSrc(rolledBack)).toBe("script-src 'self' ");
  });

  it('lists the contract a remote entry on another origin was built against', async () => {
    register({ mfe_settings: `${cdn.origin}/mfe-settings/0.3.0/remoteEntry.js` });
    const listed = (await app.inject({ method: 'GET', url: '/remotes.json' })).json();
    expect(listed.mfe_settings).toMatchObject({ entry: `${cdn.origin}/mfe-settings/0.3.0/remoteEntry.js`, version: '0.3.0', contract: '2.0.0' });
  });

  it('keeps the last good registrations while the file holds something wrong', async () => {
    register({ mfe_settings: `${cdn.origin}/mfe-settings/0.2.0/mf-manifest.json` });
    expect((await app.inject({ method: 'GET', url: '/remotes.json' })).json().mfe_settings.version).toBe('0.2.0');
    register({ mfe_settings: 'javascript:alert(1)' });
    expect((await app.inject({ method: 'GET', url: '/remotes.json' })).json().mfe_settings.version).toBe('0.2.0');
  });
});

describe('SCHOLIA_REMOTES and SCHOLIA_REMOTES_FILE', () => {
  it('take a JSON object of remote name → entry or manifest URL, here or on another origin', () => {
    const remotes = { mfe_settings: 'https://cdn.example.org/mfe-settings/0.1.0-ab12/mf-manifest.json', mfe_home: '/teams/home/remoteEntry.js' };
    expect(readConfig({ SCHOLIA_REMOTES: JSON.stringify(remotes) }).remotes).toEqual(remotes);
    expect(readConfig({}).remotes).toEqual({});
    expect(readConfig({}).remotesFile).toBeUndefined();
  });

  it.each([
    ['not JSON', '{mfe_settings:', /^SCHOLIA_REMOTES must be a JSON object .* it is not valid JSON$/],
    ['an array', '["https://cdn.example.org/remoteEntry.js"]', /^SCHOLIA_REMOTES must be a JSON object/],
    ['a bad name', '{"mfe-settings": "/x/remoteEntry.js"}', /^SCHOLIA_REMOTES: "mfe-settings" is not a remote name/],
    ['a script URL', '{"mfe_settings": "javascript:alert(1)//.js"}', /^SCHOLIA_REMOTES: mfe_settings must be the http\(s\) URL or \/path/],
    ['a relative path', '{"mfe_settings": "remotes/remoteEntry.js"}', /^SCHOLIA_REMOTES: mfe_settings must be/],
    ['a protocol-relative URL', '{"mfe_settings": "//cdn.example.org/remoteEntry.js"}', /^SCHOLIA_REMOTES: mfe_settings must be/],
    ['a page, not an entry', '{"mfe_settings": "https://cdn.example.org/index.html"}', /^SCHOLIA_REMOTES: mfe_settings must be/],
    ['credentials', '{"mfe_settings": "https://u:p@cdn.example.org/remoteEntry.js"}', /^SCHOLIA_REMOTES: mfe_settings must be/],
    ['a number', '{"mfe_settings": 1}', /^SCHOLIA_REMOTES: mfe_settings must be .* not 1$/],
  ])('refuse %s in SCHOLIA_REMOTES, naming the variable', (_what, value, message) => {
    expect(() => readConfig({ SCHOLIA_REMOTES: value })).toThrowError(message);
  });

  it('refuse a registrations file that is missing or wrong, naming the variable and the file', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-remotes-file-'));
    try {
      const missing = path.join(folder, 'missing.json');
      expect(() => readConfig({ SCHOLIA_REMOTES_FILE: missing })).toThrowError(`SCHOLIA_REMOTES_FILE: cannot read ${missing} (ENOENT)`);
      const wrong = path.join(folder, 'wrong.json');
      fs.writeFileSync(wrong, '{"mfe_settings": "ftp://cdn.example.org/remoteEntry.js"}');
      expect(() => readConfig({ SCHOLIA_REMOTES_FILE: wrong })).toThrowError(`SCHOLIA_REMOTES_FILE (${wrong}): mfe_settings must be`);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('SCHOLIA_REMOTE_OVERRIDES', () => {
  it('is off by default and refused where the server looks like production', () => {
    expect(readConfig({}).remoteOverrides).toBe(false);
    expect(readConfig({ SCHOLIA_REMOTE_OVERRIDES: 'true' }).remoteOverrides).toBe(true);
    expect(() => readConfig({ SCHOLIA_REMOTE_OVERRIDES: 'true', NODE_ENV: 'production' }))
      .toThrowError('SCHOLIA_REMOTE_OVERRIDES=true is for development servers only; it is refused with NODE_ENV=production');
    expect(() => readConfig({ SCHOLIA_REMOTE_OVERRIDES: 'true', SPACE_ID: 'org/space' }))
      .toThrowError('SCHOLIA_REMOTE_OVERRIDES=true is for development servers only; it is refused on a Hugging Face Space (SPACE_ID is set)');
    expect(() => readConfig({ SCHOLIA_REMOTE_OVERRIDES: 'maybe' })).toThrowError('SCHOLIA_REMOTE_OVERRIDES must be true or false, not "maybe"');
  });

  it('when on, tells the page so and lets it load scripts from a dev server on localhost', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-overrides-'));
    fs.writeFileSync(path.join(folder, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    fs.writeFileSync(path.join(folder, 'remotes.json'), JSON.stringify({ mfe_home: '/remotes/mfe-home/remoteEntry.js' }));
    const { startTestServer } = await import('./test-server.js');
    for (const overrides of [false, true]) {
      const server = await startTestServer({ env: { SCHOLIA_WEB_DIR: folder, SCHOLIA_REMOTE_OVERRIDES: String(overrides) } });
      try {
        const page = await fetch(`${server.url}/`);
        const policy = page.headers.get('content-security-policy') ?? '';
        const boot = JSON.parse((await page.text()).match(/<meta name="scholia-boot" content="([^"]*)">/)![1].replaceAll('&quot;', '"'));
        if (overrides) {
          expect(policy).toContain("script-src 'self' http://localhost:* http://127.0.0.1:* ws://localhost:* ws://127.0.0.1:*");
          expect(policy).toMatch(/connect-src [^;]*ws:\/\/localhost:\*/);
          expect(boot.overrides).toBe(true);
        } else {
          expect(policy).toContain("script-src 'self' ;");
          expect(boot.overrides).toBeUndefined();
        }
      } finally {
        await server.close();
      }
    }
    fs.rmSync(folder, { recursive: true, force: true });
  });
});

describe('a build whose remotes.json names odd paths', () => {
  it('still lists them and serves the page', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-odd-remotes-'));
    fs.writeFileSync(path.join(folder, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    fs.writeFileSync(path.join(folder, 'remotes.json'), JSON.stringify({ mfe_home: '/remotes/%E0%A4%A/remoteEntry.js', mfe_auth: '/../../etc/remoteEntry.js' }));
    const app = Fastify();
    await app.register(webPlugin, { webDir: folder });
    try {
      const listed = await app.inject({ method: 'GET', url: '/remotes.json' });
      expect(listed.statusCode).toBe(200);
      expect(Object.keys(listed.json())).toEqual(['mfe_auth', 'mfe_home']);
      expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
    } finally {
      await app.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
