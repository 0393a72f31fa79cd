import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../src/resources/client-errors/client-errors.routes.js';
import { startTestServer, type TestServer } from './test-server.js';

/** The web app's reports (a remote the shell would not mount) reach the server log, bounded. */
describe('POST /api/v1/client-errors', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(() => server.close());

  const report = (body: unknown, address = '10.0.0.1') =>
    server.app.inject({ method: 'POST', url: '/api/v1/client-errors', payload: body as object, remoteAddress: address });

  it('takes a report without sign-in and writes one warning line to the log', async () => {
    const lines: string[] = [];
    const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } } });
    await app.register(routes, { prefix: '/api/v1' });
    const body = { kind: 'remote-incompatible', remote: 'mfe_settings', message: 'contract 2.0.0, shell 1.0.0', details: { contract: '2.0.0' } };
    const response = await app.inject({ method: 'POST', url: '/api/v1/client-errors', payload: body });
    await app.close();
    expect(response.statusCode).toBe(204);
    const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string; clientError: unknown });
    expect(logged).toEqual([expect.objectContaining({ level: 40, msg: 'client error: remote-incompatible mfe_settings: contract 2.0.0, shell 1.0.0', clientError: body })]);
    expect((await report(body)).statusCode).toBe(204);
  });

  it.each([
    ['an unknown kind', { kind: 'anything', remote: 'mfe_settings', message: 'x' }],
    ['a long message', { kind: 'remote-load-failed', remote: 'mfe_settings', message: 'x'.repeat(501) }],
    ['unknown fields', { kind: 'remote-load-failed', remote: 'mfe_settings', message: 'x', stack: 'y' }],
    ['too many details', { kind: 'remote-load-failed', remote: 'mfe_settings', message: 'x', details: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }],
  ])('refuses %s with a 422 and a detail', async (_what, body) => {
    const response = await report(body, '10.0.0.2');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toHaveProperty('detail');
  });

  it('refuses a body over 8 KB with a 413', async () => {
    const response = await report({ kind: 'remote-load-failed', remote: 'x', message: 'y', details: { a: 'z'.repeat(9000) } }, '10.0.0.3');
    expect(response.statusCode).toBe(413);
    expect(response.json()).toHaveProperty('detail');
  });

  it('answers 429 with Retry-After once one address sent 20 reports in a minute', async () => {
    const body = { kind: 'remote-load-failed', remote: 'mfe_home', message: 'down' };
    for (let i = 0; i < 20; i += 1) expect((await report(body, '10.0.0.4')).statusCode).toBe(204);
    const refused = await report(body, '10.0.0.4');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await report(body, '10.0.0.5')).statusCode).toBe(204);
  });
});
