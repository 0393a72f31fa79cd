import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.js';
import { startWebPlugin, type WebFixture } from './web-fixture.js';

const script = 'console.log("hello");\n';
const map = '{"version":3,"sources":["../src/secret-module.ts"],"mappings":"AAAA"}';
const files = {
  'index.html': '<!doctype html><div id="root"></div>',
  'main.0123abcd.js': script,
  'main.0123abcd.js.br': zlib.brotliCompressSync(script),
  'main.0123abcd.js.map': map,
  'main.0123abcd.css': 'body{}',
  'main.0123abcd.css.map': map,
  'remotes/mfe-home/remoteEntry.js': script,
  'remotes/mfe-home/remoteEntry.js.map': map,
};

describe('web plugin: source maps withheld by default', () => {
  let web: WebFixture;
  beforeAll(async () => {
    web = await startWebPlugin(files);
  });
  afterAll(() => web.close());

  it('answers 404 for every map, present or not, and never the shell page in its place', async () => {
    for (const url of ['/main.0123abcd.js.map', '/main.0123abcd.css.map', '/remotes/mfe-home/remoteEntry.js.map', '/missing.js.map', '/main.0123abcd.js.map?x=1']) {
      const response = await web.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('secret-module');
      expect(response.body, url).not.toContain('<div id="root">');
    }
  });

  it('still serves the bundles, without pointing at a map', async () => {
    const response = await web.app.inject({ method: 'GET', url: '/main.0123abcd.js', headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.sourcemap).toBeUndefined();
  });
});

describe('web plugin: source maps served when configured', () => {
  let web: WebFixture;
  beforeAll(async () => {
    web = await startWebPlugin(files, { serveSourceMaps: true });
  });
  afterAll(() => web.close());

  it('serves the maps and names each bundle\'s map in a SourceMap header', async () => {
    const mapResponse = await web.app.inject({ method: 'GET', url: '/remotes/mfe-home/remoteEntry.js.map' });
    expect(mapResponse.statusCode).toBe(200);
    expect(mapResponse.body).toBe(map);
    const brotli = await web.app.inject({ method: 'GET', url: '/main.0123abcd.js', headers: { 'accept-encoding': 'br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.sourcemap).toBe('main.0123abcd.js.map');
    const css = await web.app.inject({ method: 'GET', url: '/main.0123abcd.css' });
    expect(css.headers.sourcemap).toBe('main.0123abcd.css.map');
    const missing = await web.app.inject({ method: 'GET', url: '/missing.js.map' });
    expect(missing.statusCode).toBe(404);
  });
});

describe('SCHOLIA_SERVE_SOURCE_MAPS', () => {
  it('is off by default, on for true, and names the variable for a value it does not know', () => {
    expect(readConfig({}).serveSourceMaps).toBe(false);
    expect(readConfig({ SCHOLIA_SERVE_SOURCE_MAPS: 'true' }).serveSourceMaps).toBe(true);
    expect(readConfig({ SCHOLIA_SERVE_SOURCE_MAPS: 'false' }).serveSourceMaps).toBe(false);
    expect(() => readConfig({ SCHOLIA_SERVE_SOURCE_MAPS: 'maybe' })).toThrow('SCHOLIA_SERVE_SOURCE_MAPS must be true or false, not "maybe"');
  });
});
