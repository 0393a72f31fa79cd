import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { TestApi } from '../../../test/api-client.js';

let server: TestServer;
let api: TestApi;
beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url);
});
afterAll(() => server.close());

describe('info routes', () => {
  it('GET /version answers without credentials', async () => {
    const res = await api.get('/version');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: '2.8.0' });
  });

  it('GET /status reports version, search engine and memory', async () => {
    const res = await api.get('/status');
    expect(res.status).toBe(200);
    expect(res.body.version).toBe('2.8.0');
    expect(typeof res.body.memory.rss).toBe('number');
  });

  it('GET /settings omits the huggingface block off Spaces', async () => {
    const res = await api.get('/settings');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      argilla: { share_your_progress_enabled: false },
      scholia: { hub_url: expect.any(String), datasets_server_url: expect.any(String) },
    });
  });

  it('GET /settings tells the browser where the Hub and the dataset viewer are', async () => {
    const res = await api.get('/settings');
    expect(res.body.scholia).toEqual({ hub_url: server.app.config.hubUrl, datasets_server_url: server.app.config.datasetsServerUrl });
  });

  it('the CSP lets the browser call the dataset viewer (product spec §7)', async () => {
    const res = await fetch(`${server.url}/api/v1/settings`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(/connect-src [^;]*/.exec(csp)?.[0]).toContain(new URL(server.app.config.datasetsServerUrl).origin);
  });

  it('unknown paths give the plain 404 body', async () => {
    const res = await api.get('/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not Found' });
  });

  it('GET /api/_status answers for health checks', async () => {
    const res = await fetch(`${server.url}/api/_status`);
    expect(res.status).toBe(200);
  });
});
