import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebPlugin, type WebFixture } from './web-fixture.js';

/** The web plugin serves the build's precompressed copies (scripts/build-web.mjs writes them). */
describe('web plugin: compressed static files', () => {
  let web: WebFixture;
  const script = `export const answer = ${JSON.stringify('x'.repeat(2000))};\n`;

  beforeAll(async () => {
    web = await startWebPlugin({
      'index.html': '<!doctype html><div id="root"></div>',
      'main.0123abcd.js': script,
      'main.0123abcd.js.br': zlib.brotliCompressSync(script),
      'main.0123abcd.js.gz': zlib.gzipSync(script),
      'remotes/mfe-home/remote.json': '{"version":"0.1.0"}',
    });
  });

  afterAll(() => web.close());

  it('sends the brotli copy of a hashed .js asset, still immutable and typed as JavaScript', async () => {
    const response = await web.app.inject({ method: 'GET', url: '/main.0123abcd.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.vary).toMatch(/Accept-Encoding/i);
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(script);
  });

  it('sends gzip to a client without brotli and the plain file to one without either', async () => {
    const gzip = await web.app.inject({ method: 'GET', url: '/main.0123abcd.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(script);
    const plain = await web.app.inject({ method: 'GET', url: '/main.0123abcd.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('falls back to the plain file when no compressed copy exists', async () => {
    const response = await web.app.inject({ method: 'GET', url: '/remotes/mfe-home/remote.json', headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.json()).toEqual({ version: '0.1.0' });
  });
});
