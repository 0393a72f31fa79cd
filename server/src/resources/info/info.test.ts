import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { TestApi } from '../../../test/api-client.js';
import { readConfig } from '../../config.js';
import { readEnvironmentSettings } from './environment-settings.js';

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

  it('GET /settings on a Space adds the huggingface block and the storage warning flag', async () => {
    const spaceServer = await startTestServer({
      env: { SPACE_ID: 'alice/scholia', SPACE_TITLE: 'Scholia', SPACE_HOST: 'alice-scholia.hf.space', SPACE_SUBDOMAIN: 'alice-scholia', SCHOLIA_SHARE_YOUR_PROGRESS: 'true' },
    });
    const res = await new TestApi(spaceServer.url).get('/settings').finally(() => spaceServer.close());
    expect(res.body.argilla).toEqual({ share_your_progress_enabled: true, show_huggingface_space_persistent_storage_warning: true });
    expect(res.body.huggingface).toEqual({
      space_id: 'alice/scholia', space_title: 'Scholia', space_subdomain: 'alice-scholia', space_host: 'alice-scholia.hf.space',
      space_repo_name: 'scholia', space_author_name: 'alice', space_persistent_storage_enabled: false,
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

describe('Space detection (hub-contract §6)', () => {
  const readEnvironment = (env: Record<string, string>) => readEnvironmentSettings(readConfig(env));
  const space = { SPACE_ID: 'bob/annotate', SPACE_AUTHOR_NAME: 'bob' };

  it('is off without SPACE_ID, whatever else is set', () => {
    expect(readEnvironment({ SPACE_TITLE: 'x', PERSISTANT_STORAGE_ENABLED: 'false' })).toEqual({ argilla: { share_your_progress_enabled: false } });
  });

  it('reads persistent storage from the Space variable (and its correct spelling)', () => {
    expect(readEnvironment({ ...space, PERSISTANT_STORAGE_ENABLED: 'true' }).huggingface?.space_persistent_storage_enabled).toBe(true);
    expect(readEnvironment({ ...space, PERSISTENT_STORAGE_ENABLED: 'true' }).huggingface?.space_persistent_storage_enabled).toBe(true);
    expect(readEnvironment(space).huggingface?.space_persistent_storage_enabled).toBe(false);
  });

  it('the warning flag defaults to true and an operator can switch it off', () => {
    const flag = (env: Record<string, string>) => readEnvironment(env).argilla.show_huggingface_space_persistent_storage_warning;
    expect(flag(space)).toBe(true);
    expect(flag({ ...space, PERSISTANT_STORAGE_ENABLED: 'true' })).toBe(true); // the browser checks the storage itself
    expect(flag({ ...space, ARGILLA_SHOW_HUGGINGFACE_SPACE_PERSISTENT_STORAGE_WARNING: 'false' })).toBe(false);
    expect(flag({ ...space, SCHOLIA_SHOW_SPACE_STORAGE_WARNING: 'false' })).toBe(false);
  });
});
