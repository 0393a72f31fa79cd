import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebPlugin, type WebFixture } from './web-fixture.js';

/** The shell's page carries the remote manifest, so its boot needs no manifest round trips. */
describe('web plugin: boot manifest in index.html', () => {
  let web: WebFixture;

  beforeAll(async () => {
    web = await startWebPlugin({
      'index.html': '<!doctype html><html><head><link rel="preload" href="/remotes.json" as="fetch" crossorigin></head><body></body></html>',
      'remotes.json': JSON.stringify({
        mfe_home: '/remotes/mfe-home/remoteEntry.js', mfe_other: 'https://cdn.example/x/remoteEntry.js', mfe_auth: '/remotes/mfe-auth/remoteEntry.js',
      }),
      'remotes/mfe-home/mf-manifest.json': JSON.stringify({ exposes: [
        { name: 'lifecycles', assets: { js: { sync: ['life.js'] } } },
        { name: 'App', assets: { js: { sync: ['app.1.js'], async: ['lazy.js'] }, css: { sync: ['app.1.css'] } } },
      ] }),
    });
  });

  afterAll(() => web.close());

  it('inlines remotes.json and the App files of same-origin remotes, dropping the remotes.json preload', async () => {
    const response = await web.app.inject({ method: 'GET', url: '/dataset/1/settings' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).not.toContain('href="/remotes.json"');
    const content = response.body.match(/<meta name="scholia-boot" content="([^"]*)">/)?.[1];
    expect(JSON.parse((content ?? 'null').replaceAll('&quot;', '"').replaceAll('&amp;', '&'))).toEqual({
      remotes: {
        mfe_auth: { entry: '/remotes/mfe-auth/remoteEntry.js', registered: '/remotes/mfe-auth/remoteEntry.js', source: 'build' },
        mfe_home: { entry: '/remotes/mfe-home/remoteEntry.js', registered: '/remotes/mfe-home/remoteEntry.js', source: 'build' },
        mfe_other: { entry: 'https://cdn.example/x/remoteEntry.js', registered: 'https://cdn.example/x/remoteEntry.js', source: 'build' },
      },
      app: { mfe_home: ['/remotes/mfe-home/app.1.js', '/remotes/mfe-home/app.1.css'] },
    });
  });

  it('escapes the manifest so a value cannot leave the attribute', async () => {
    const remotes = path.join(web.webDir, 'remotes.json');
    const saved = fs.readFileSync(remotes, 'utf8');
    fs.writeFileSync(remotes, JSON.stringify({ evil: '/x/"><script>alert(1)</script>/remoteEntry.js' }));
    try {
      const response = await web.app.inject({ method: 'GET', url: '/' });
      expect(response.body).not.toContain('<script>alert(1)');
      expect(response.body).toContain('&quot;&gt;&lt;script&gt;');
    } finally {
      fs.writeFileSync(remotes, saved);
    }
  });
});
