import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../api-client.js';
import { startFakeHub, type FakeHub } from '../fake-hub/fake-hub.js';
import { CHILD_OWNER, startChildServer, type ChildServer } from './child-server.js';

/**
 * The whole log of a server run, at its most verbose level, holds none of the credentials sent to
 * it: in query strings or headers, on answered and refused requests alike, OAuth callbacks included.
 */
let hub: FakeHub;
let child: ChildServer;

beforeAll(async () => {
  hub = await startFakeHub();
  child = await startChildServer({
    env: {
      SCHOLIA_LOG_LEVEL: 'trace',
      SCHOLIA_OPENID_URL: hub.url,
      SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_ID: hub.oauth.clientId,
      SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_SECRET: hub.oauth.clientSecret,
      // Only read from the provider's redirect, never followed: the callback is sent to the server below.
      SCHOLIA_OAUTH2_HUGGINGFACE_REDIRECT_URI: 'http://127.0.0.1/oauth/huggingface/callback',
    },
  });
}, 90_000);
afterAll(async () => {
  await child?.stop();
  await hub?.close();
});

const planted: string[] = [];
/** A value found nowhere but in what this test sends. */
function plant(name: string): string {
  const secret = `planted-${name}-${randomBytes(6).toString('hex')}`;
  planted.push(secret);
  return secret;
}

async function send(path: string, init: RequestInit = {}): Promise<number> {
  const res = await fetch(`${child.url}${path}`, { redirect: 'manual', ...init });
  await res.arrayBuffer();
  return res.status;
}

describe('the request log', () => {
  it('holds no credential sent in a query string or header, answered or refused, at trace level', async () => {
    const owner = new TestApi(child.url, { apiKey: CHILD_OWNER.apiKey });
    const password = plant('user-password');
    const annotator = await owner.post('/users', { username: 'log-annotator', first_name: 'L', role: 'annotator', password });
    expect(annotator.status).toBe(201);
    const signIn = await owner.as(undefined).request('POST', '/token', new URLSearchParams({ username: 'log-annotator', password }).toString(), {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    const annotatorToken = signIn.body.access_token as string;
    const annotatorKey = (await owner.as({ token: annotatorToken }).get('/me')).body.api_key as string;
    expect(typeof annotatorKey).toBe('string');
    planted.push(annotatorToken, annotatorKey, CHILD_OWNER.apiKey, CHILD_OWNER.password);

    const statuses: Record<string, number> = {};
    const record = async (label: string, path: string, init?: RequestInit) => (statuses[label] = await send(path, init));

    // Refused: no credential, or a wrong one, in the query string under each name clients use.
    await record('api_key', `/api/v1/me?api_key=${plant('api-key')}`);
    await record('token', `/api/v1/me?token=${plant('token')}`);
    await record('access_token', `/api/v1/me?access_token=${plant('access-token')}`);
    await record('password', `/api/v1/me?password=${plant('password')}&username=owner`);
    await record('upper case', `/api/v1/me?API_KEY=${plant('upper-api-key')}`);
    await record('encoded name', `/api/v1/me?api%5Fkey=${plant('encoded-api-key')}`);
    await record('repeated', `/api/v1/me?token=first&token=${plant('repeated-token')}`);
    await record('hf_token', `/api/v1/me?hf_token=${plant('hf-token')}&client_secret=${plant('client-secret')}`);
    await record('unknown route', `/api/v1/no-such-route?token=${plant('404-token')}`);
    await record('bad encoding', `/api/v1/records/%zz?api_key=${plant('422-api-key')}`);
    // Refused: a wrong credential in each header.
    await record('bearer', '/api/v1/me', { headers: { Authorization: `Bearer ${plant('bearer')}` } });
    await record('api key header', '/api/v1/me', { headers: { 'X-Argilla-Api-Key': plant('api-key-header') } });
    await record('cookie', '/api/v1/me', { headers: { Cookie: `session=${plant('cookie')}` } });
    // 403: a valid credential without the role, with more credentials in the query.
    await record('forbidden', `/api/v1/users?access_token=${plant('403-access-token')}`, { headers: { 'X-Argilla-Api-Key': annotatorKey } });
    // Answered: the owner's key in the header and in the query string.
    await record('answered', `/api/v1/me?api_key=${CHILD_OWNER.apiKey}`, { headers: { 'X-Argilla-Api-Key': CHILD_OWNER.apiKey } });
    // Sign-in: a wrong password, and a body that is not JSON with a password in it.
    await record('sign-in', '/api/v1/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'owner', password: plant('sign-in-password') }).toString(),
    });
    await record('broken JSON', '/api/v1/workspaces', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Argilla-Api-Key': CHILD_OWNER.apiKey },
      body: `{"name": "x", "password": "${plant('json-password')}"`,
    });

    // OAuth: the real flow (the provider's code and state), a forged callback, and the web app's callback page.
    const start = await fetch(`${child.url}/api/v1/oauth2/providers/huggingface/authentication`, { redirect: 'manual' });
    expect(start.status).toBe(307);
    const cookie = start.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location')!);
    const [code, state] = [callback.searchParams.get('code')!, callback.searchParams.get('state')!];
    planted.push(code, state);
    const signedIn = await fetch(`${child.url}/api/v1/oauth2/providers/huggingface/access-token${callback.search}`, { headers: cookie ? { Cookie: cookie } : {} });
    const oauthToken = ((await signedIn.json()) as { access_token?: string }).access_token;
    if (oauthToken) {
      planted.push(oauthToken);
      await record('oauth token', `/api/v1/me?access_token=${oauthToken}`, { headers: { Authorization: `Bearer ${oauthToken}` } });
    }
    await record('forged callback', `/api/v1/oauth2/providers/huggingface/access-token?code=${plant('oauth-code')}&state=${plant('oauth-state')}`);
    await record('callback page', `/oauth/huggingface/callback?code=${plant('page-code')}&state=${plant('page-state')}`);

    expect(statuses).toMatchObject({ api_key: 401, token: 401, access_token: 401, bearer: 401, 'api key header': 401, forbidden: 403, answered: 200, 'sign-in': 401 });
    expect(statuses['forged callback']).toBeGreaterThanOrEqual(400);
    expect(statuses['forged callback']).toBeLessThan(500);

    // Pino writes asynchronously: wait for the last request's lines.
    const deadline = Date.now() + 10_000;
    while (!child.output().includes('/oauth/huggingface/callback?') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const output = child.output();
    // The requests were logged, each credential's name with its value replaced.
    expect(output).toContain('"/api/v1/me?api_key=[redacted]"');
    expect(output).toContain('"/api/v1/oauth2/providers/huggingface/access-token?code=[redacted]&state=[redacted]"');
    expect(output).toContain('"/api/v1/me?password=[redacted]&username=owner"');
    for (const secret of planted) expect(output.includes(secret), `found in the log: ${secret}`).toBe(false);
    // Every line, the first owner's included, is one a log shipper or pino-pretty reads.
    for (const line of output.trim().split('\n')) expect(() => JSON.parse(line), line).not.toThrow();
  }, 90_000);
});
