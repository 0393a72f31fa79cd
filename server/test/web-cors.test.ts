import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.js';
import { OWNER, startTestServer, type TestServer } from './test-server.js';

const HOST = 'https://host.example.org';
const OTHER = 'https://elsewhere.example.org';
const manifest = '{"id":"mfe_annotation","metaData":{"remoteEntry":{"name":"remoteEntry.js"}}}';
const entry = 'var mfe_annotation;\n';

function writeWebBuild(): string {
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-web-cors-'));
  const files: Record<string, string | Buffer> = {
    'index.html': '<!doctype html><div id="root"></div>',
    'remotes/mfe-annotation/mf-manifest.json': manifest,
    'remotes/mfe-annotation/remoteEntry.js': entry,
    'remotes/mfe-annotation/remoteEntry.js.br': zlib.brotliCompressSync(entry),
    'remotes/mfe-annotation/static/js/async/annotate.0123abcd.js': entry,
  };
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(webDir, name)), { recursive: true });
    fs.writeFileSync(path.join(webDir, name), content);
  }
  return webDir;
}

describe('cross-origin access for the configured origins', () => {
  let server: TestServer;
  let webDir: string;
  beforeAll(async () => {
    webDir = writeWebBuild();
    server = await startTestServer({ env: { SCHOLIA_WEB_DIR: webDir, SCHOLIA_CORS_ORIGINS: `${HOST}, http://localhost:5173` } });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('answers an API preflight from a configured origin with the methods and headers a host needs, without credentials', async () => {
    const response = await server.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/me',
      headers: { origin: HOST, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-argilla-api-key' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(HOST);
    expect(String(response.headers['access-control-allow-methods']).split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']));
    expect(String(response.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/)).toEqual(
      expect.arrayContaining(['x-argilla-api-key', 'authorization', 'content-type']),
    );
    expect(String(response.headers.vary)).toMatch(/origin/i);
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets a configured origin read an API answer authenticated by header, and sets no cookie', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/v1/me', headers: { origin: HOST, 'x-argilla-api-key': OWNER.apiKey } });
    expect(response.statusCode).toBe(200);
    expect(response.json().username).toBe(OWNER.username);
    expect(response.headers['access-control-allow-origin']).toBe(HOST);
    expect(String(response.headers.vary)).toMatch(/origin/i);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('matches the origin exactly (a normalised configured value still matches what browsers send)', async () => {
    const local = await server.app.inject({ method: 'GET', url: '/api/_status', headers: { origin: 'http://localhost:5173' } });
    expect(local.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    for (const origin of ['http://localhost:5174', 'https://host.example.org.evil.test', 'http://host.example.org']) {
      const response = await server.app.inject({ method: 'GET', url: '/api/_status', headers: { origin } });
      expect(response.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });

  it('gives another origin no CORS header, neither on a request nor on a preflight', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/v1/me', headers: { origin: OTHER, 'x-argilla-api-key': OWNER.apiKey } });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await server.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/me',
      headers: { origin: OTHER, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-argilla-api-key' },
    });
    expect(preflight.statusCode).toBe(404);
    for (const name of ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers']) {
      expect(preflight.headers[name], name).toBeUndefined();
    }
  });

  it('lets a configured origin read the remote manifest, entry and chunks, preflight included', async () => {
    for (const url of [
      '/remotes/mfe-annotation/mf-manifest.json',
      '/remotes/mfe-annotation/remoteEntry.js',
      '/remotes/mfe-annotation/static/js/async/annotate.0123abcd.js',
    ]) {
      const response = await server.app.inject({ method: 'GET', url, headers: { origin: HOST, 'accept-encoding': 'br' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['access-control-allow-origin'], url).toBe(HOST);
      expect(String(response.headers.vary), url).toMatch(/origin/i);
      const preflight = await server.app.inject({ method: 'OPTIONS', url, headers: { origin: HOST, 'access-control-request-method': 'GET' } });
      expect(preflight.statusCode, url).toBe(204);
      expect(preflight.headers['access-control-allow-origin'], url).toBe(HOST);
    }
    const compressed = await server.app.inject({ method: 'GET', url: '/remotes/mfe-annotation/remoteEntry.js', headers: { origin: HOST, 'accept-encoding': 'br' } });
    expect(compressed.headers['content-encoding']).toBe('br');
    // Both: caches keep brotli and plain apart, and one origin's answer apart from another's.
    expect(String(compressed.headers.vary)).toMatch(/accept-encoding/i);
    expect(String(compressed.headers.vary)).toMatch(/origin/i);
    const foreign = await server.app.inject({ method: 'GET', url: '/remotes/mfe-annotation/mf-manifest.json', headers: { origin: OTHER } });
    expect(foreign.statusCode).toBe(200);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers 404 for an unknown file under /remotes/, not the shell page', async () => {
    for (const url of ['/remotes/mfe-annotation/static/js/async/missing.deadbeef.js', '/remotes/nope/remoteEntry.js', '/remotes/mfe-annotation/mf-manifest.json.old']) {
      const response = await server.app.inject({ method: 'GET', url, headers: { origin: HOST } });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('<div id="root">');
      expect(response.headers['access-control-allow-origin'], url).toBe(HOST);
    }
    const page = await server.app.inject({ method: 'GET', url: '/datasets/123/annotate' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
  });
});

describe('cross-origin access when no origin is configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('sends no CORS header and refuses the preflight', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/v1/me', headers: { origin: HOST, 'x-argilla-api-key': OWNER.apiKey } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await server.app.inject({ method: 'OPTIONS', url: '/api/v1/me', headers: { origin: HOST, 'access-control-request-method': 'GET' } });
    expect(preflight.statusCode).toBe(404);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('SCHOLIA_CORS_ORIGINS', () => {
  it('reads comma-separated origins in the form browsers send them; unset or empty is none', () => {
    expect(readConfig({}).corsOrigins).toEqual([]);
    expect(readConfig({ SCHOLIA_CORS_ORIGINS: ' ' }).corsOrigins).toEqual([]);
    expect(readConfig({ SCHOLIA_CORS_ORIGINS: 'https://App.Example.org:443, http://localhost:5173,https://app.example.org' }).corsOrigins).toEqual([
      'https://app.example.org',
      'http://localhost:5173',
    ]);
  });

  it.each(['*', 'app.example.org', 'https://app.example.org/', 'https://app.example.org/path', 'ftp://app.example.org', 'https://user@app.example.org', 'https://*.example.org'])(
    'refuses %s with a message naming the variable and the expected form',
    (value) => {
      expect(() => readConfig({ SCHOLIA_CORS_ORIGINS: `http://localhost:5173,${value}` })).toThrowError(
        new RegExp(`^SCHOLIA_CORS_ORIGINS takes comma-separated origins such as https://app\\.example\\.org or http://localhost:5173, not "${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"$`),
      );
    },
  );
});
