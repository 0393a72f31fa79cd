import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { OWNER, startTestServer, type TestServer } from '../../../test/test-server.js';
import { TestApi } from '../../../test/api-client.js';
import { UNAUTHORIZED, createUser, validationError } from '../../../test/fixtures.js';

let server: TestServer;
let api: TestApi;

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url);
});
afterAll(() => server.close());

/** The frontend's login call: a form POST. */
async function login(fields: Record<string, string>) {
  const res = await fetch(`${server.url}/api/v1/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

describe('POST /token', () => {
  it('issues a bearer JWT (201) with the contract claims', async () => {
    const user = await createUser(api, { role: 'admin' });
    const res = await login({ username: user.username, password: user.password });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
    const claims = decodeJwt(res.body.access_token);
    expect(claims).toMatchObject({ sub: user.id, ver: 0, identity: user.id, name: user.username, username: user.username, role: 'admin' });
    const lifetime = (claims.exp ?? 0) - Math.floor(Date.now() / 1000);
    expect(lifetime).toBeGreaterThan(86_000);
    expect(lifetime).toBeLessThanOrEqual(86_400);
    expect((await api.as({ token: res.body.access_token }).get('/me')).body.id).toBe(user.id);
  });

  it('401s on a wrong password or an unknown user', async () => {
    for (const fields of [
      { username: OWNER.username, password: 'wrong-password' },
      { username: 'nobody-here', password: OWNER.password },
    ]) {
      const res = await login(fields);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    }
  });

  it('422s (validation shape) when a field is missing', async () => {
    const noPassword = await login({ username: OWNER.username });
    expect(noPassword.status).toBe(422);
    expect(noPassword.body).toEqual(validationError({ type: 'missing', loc: ['body', 'password'], msg: 'Field required' }));
    const noUsername = await login({ password: 'x' });
    expect(noUsername.body).toEqual(validationError({ type: 'missing', loc: ['body', 'username'], msg: 'Field required' }));
    const noBody = await fetch(`${server.url}/api/v1/token`, { method: 'POST' });
    expect(noBody.status).toBe(422);
    expect(await noBody.json()).toEqual(validationError({ type: 'missing', loc: ['body', 'username'], msg: 'Field required' }));
  });
});

describe('OAuth2', () => {
  it('GET /oauth2/providers lists no provider when none is configured (public)', async () => {
    const res = await api.get('/oauth2/providers');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [] });
  });

  it('404s for an unknown provider on both flow routes', async () => {
    for (const path of ['/oauth2/providers/huggingface/authentication', '/oauth2/providers/github/access-token?code=c&state=s']) {
      const res = await api.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: `OAuth Provider '${path.split('/')[3]}' not found` });
    }
  });
});
