import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webPlugin } from '../src/plugins/external/web.js';

/** The shell's page carries the remote manifest, so its boot needs no manifest round trips. */
describe('web plugin: boot manifest in index.html', () => {
  let app: FastifyInstance;
  let webDir: string;

  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'),
      '<!doctype html><html><head><link rel="preload" href="/remotes.json" as="fetch" crossorigin></head><body></body></html>');
    fs.writeFileSync(path.join(webDir, 'remotes.json'), JSON.stringify({
      mfe_home: '/remotes/mfe-home/remoteEntry.js', mfe_other: 'https://cdn.example/x/remoteEntry.js', mfe_auth: '/remotes/mfe-auth/remoteEntry.js',
    }));
    fs.mkdirSync(path.join(webDir, 'remotes', 'mfe-home'), { recursive: true });
    fs.writeFileSync(path.join(webDir, 'remotes', 'mfe-home', 'mf-manifest.json'), JSON.stringify({ exposes: [
      { name: 'lifecycles', assets: { js: { sync: ['life.js'] } } },
      { name: 'App', assets: { js: { sync: ['app.1.js'], async: ['lazy.js'] }, css: { sync: ['app.1.css'] } } },
    ] }));
    app = Fastify();
    await app.register(webPlugin, { webDir });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('inlines remotes.json and the App files of same-origin remotes, dropping the remotes.json preload', async () => {
    const response = await app.inject({ method: 'GET', url: '/dataset/1/settings' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).not.toContain('href="/remotes.json"');
    const content = response.body.match(/<meta name="scholia-boot" content="([^"]*)">/)?.[1];
    expect(JSON.parse((content ?? 'null').replaceAll('&quot;', '"').replaceAll('&amp;', '&'))).toEqual({
      remotes: { mfe_home: '/remotes/mfe-home/remoteEntry.js', mfe_other: 'https://cdn.example/x/remoteEntry.js', mfe_auth: '/remotes/mfe-auth/remoteEntry.js' },
      app: { mfe_home: ['/remotes/mfe-home/app.1.js', '/remotes/mfe-home/app.1.css'] },
    });
  });

  it('escapes the manifest so a value cannot leave the attribute', async () => {
    const remotes = path.join(webDir, 'remotes.json');
    const saved = fs.readFileSync(remotes, 'utf8');
    fs.writeFileSync(remotes, JSON.stringify({ evil: '/x/"><script>alert(1)</script>/remoteEntry.js' }));
    try {
      const response = await app.inject({ method: 'GET', url: '/' });
      expect(response.body).not.toContain('<script>alert(1)');
      expect(response.body).toContain('&quot;&gt;&lt;script&gt;');
    } finally {
      fs.writeFileSync(remotes, saved);
    }
  });
});
