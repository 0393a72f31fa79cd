import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from './reliability/child-server.js';

/**
 * Behind a reverse proxy listed in SCHOLIA_TRUSTED_PROXIES, a request's log line names the client
 * the proxy forwarded, not the proxy: the address an operator needs to trace an abuse.
 */
describe('request log lines behind a trusted proxy', () => {
  let server: ChildServer;

  beforeAll(async () => {
    server = await startChildServer({ env: { SCHOLIA_TRUSTED_PROXIES: '127.0.0.1' } });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('carry the forwarded client address', async () => {
    await fetch(`${server.url}/api/v1/me`, { headers: { 'X-Forwarded-For': '203.0.113.7' } });
    await expect.poll(() => server.output()).toContain('"remoteAddress":"203.0.113.7"');
  });
});
