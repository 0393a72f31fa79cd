import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeadersPlugin } from '../../src/plugins/external/security-headers.js';
import { TestApi } from '../api-client.js';
import { UNAUTHORIZED } from '../fixtures.js';
import { OWNER, startTestServer, type TestServer } from '../test-server.js';
import { CHILD_OWNER, startChildServer } from './child-server.js';
import { isContractError } from './harness.js';

/** Web security properties of an install: storage of secrets, tokens, headers, limits, logs. */
let server: TestServer;
let api: TestApi;

beforeAll(async () => {
  server = await startTestServer({ env: { SCHOLIA_FRAME_ANCESTORS: "'self' https://embed.example.org", SCHOLIA_LOGIN_RATE_LIMIT: '5' } });
  api = new TestApi(server.url, { apiKey: OWNER.apiKey });
});
afterAll(async () => server?.close());

const login = (client: TestApi, username: string, password: string) =>
  client.request('POST', '/token', `username=${encodeURIComponent(username)}&password=${encodeURIComponent(password)}`, {
    'Content-Type': 'application/x-www-form-urlencoded',
  });

/** One raw HTTP/1.1 exchange, for request targets fetch() would normalise. */
async function rawRequest(url: string, requestLine: string, headers: string[] = []): Promise<{ status: number; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(`${requestLine}\r\nHost: x\r\nConnection: close\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('error', reject);
    socket.on('end', () => resolve({ status: Number(data.split(' ')[1]), body: data.slice(data.indexOf('\r\n\r\n') + 4) }));
  });
}

describe('secrets at rest', () => {
  it('stores passwords as argon2 hashes, never in clear', async () => {
    await api.post('/users', { username: 'hash-check', first_name: 'H', password: 'clear-text-password' });
    const rows = await server.app.database.db.selectFrom('users').select(['username', 'password_hash']).execute();
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) expect(row.password_hash, row.username).toMatch(/^\$argon2id?\$/);
    expect(JSON.stringify(rows)).not.toContain('clear-text-password');
  });

  it('generates a JWT secret per install in the data folder; a token of one install is refused by another', async () => {
    const other = await startTestServer();
    try {
      const secretA = fs.readFileSync(path.join(server.dataDir, 'jwt-secret'), 'utf8');
      const secretB = fs.readFileSync(path.join(other.dataDir, 'jwt-secret'), 'utf8');
      expect(secretA.length).toBeGreaterThanOrEqual(32);
      expect(secretA).not.toBe(secretB);
      expect((fs.statSync(path.join(server.dataDir, 'jwt-secret')).mode & 0o077).toString(8)).toBe('0');
      const token = (await login(api.as(undefined), OWNER.username, OWNER.password)).body.access_token;
      expect((await api.as({ token }).get('/me')).status).toBe(200);
      // Same username exists in the other install; only the signature differs.
      const refused = await new TestApi(other.url, { token }).get('/me');
      expect(refused.status).toBe(401);
      expect(refused.body.detail.params.detail).toBe('Invalid token');
      // alg=none and a tampered payload are refused too.
      const [header, payload] = token.split('.');
      const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
      expect((await api.as({ token: none }).get('/me')).status).toBe(401);
      const tampered = `${header}.${Buffer.from(JSON.stringify({ username: 'owner', exp: 9999999999 })).toString('base64url')}.${token.split('.')[2]}`;
      expect((await api.as({ token: tampered }).get('/me')).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('login', () => {
  it('rate-limits attempts (429 in a contract body) after SCHOLIA_LOGIN_RATE_LIMIT', async () => {
    const anonymous = api.as(undefined);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await login(anonymous, 'brute-force-target', `guess-${i}`)).status);
    // The limit counts every attempt from this address in the minute, earlier tests' sign-ins included.
    expect(statuses[0]).toBe(401);
    expect(statuses.slice(statuses.indexOf(429))).toEqual(statuses.slice(statuses.indexOf(429)).map(() => 429));
    const limited = await login(anonymous, 'brute-force-target', 'guess-x');
    expect(limited.status).toBe(429);
    expect(isContractError(429, limited.body)).toBe(true);
  });
});

describe('HTTP hardening', () => {
  it('sends CSP with frame-ancestors from SCHOLIA_FRAME_ANCESTORS, nosniff and a referrer policy', async () => {
    for (const target of ['/api/v1/version', '/api/v1/me', '/']) {
      const res = await fetch(`${server.url}${target}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, target).toContain("frame-ancestors 'self' https://embed.example.org");
      expect(csp).toContain("default-src 'self'");
      // X-Frame-Options can name no other origin: sent, it would refuse the listed parent.
      expect(res.headers.get('x-frame-options'), target).toBeNull();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('keeps X-Frame-Options when only its own origin may frame it', async () => {
    for (const [frameAncestors, expected] of [[["'self'"], 'SAMEORIGIN'], [["'none'"], 'DENY']] as const) {
      const app = Fastify();
      await app.register(securityHeadersPlugin, { frameAncestors: [...frameAncestors] });
      app.get('/', async () => 'page');
      const res = await app.inject({ url: '/' });
      await app.close();
      expect(res.headers['x-frame-options']).toBe(expected);
      expect(res.headers['content-security-policy']).toContain(`frame-ancestors ${frameAncestors[0]}`);
    }
  });

  it('answers a body over the size limit with 413, never 500', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${server.url}/api/v1/workspaces`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Argilla-Api-Key': OWNER.apiKey, 'Content-Length': String(65 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{"name":"');
      // The server answers on the declared length; the rest of the body is never needed.
    });
    expect(status).toBe(413);
    const chunked = await fetch(`${server.url}/api/v1/workspaces`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Argilla-Api-Key': OWNER.apiKey },
      body: JSON.stringify({ name: 'x'.repeat(65 * 1024 * 1024) }),
    }).catch((error: unknown) => error);
    if (chunked instanceof Response) {
      expect(chunked.status).toBe(413);
      expect(isContractError(413, await chunked.json())).toBe(true);
    }
  });

  it('authenticates by the matched route: encoded or absolute-form paths do not skip the check (was 500)', async () => {
    const encoded = await fetch(`${server.url}/api/%761/users`);
    expect(encoded.status).toBe(401);
    expect(await encoded.json()).toEqual(UNAUTHORIZED);
    const absolute = await rawRequest(server.url, 'GET http://x/api/v1/users HTTP/1.1');
    expect(absolute.status).toBe(401);
    expect(JSON.parse(absolute.body)).toEqual(UNAUTHORIZED);
  });

  it('answers bad percent-encoding and over-long paths and URLs in contract shapes (was a Fastify body)', async () => {
    const badEncoding = await fetch(`${server.url}/api/v1/records/%zz`, { headers: { 'X-Argilla-Api-Key': OWNER.apiKey } });
    expect(badEncoding.status).toBe(422);
    expect(isContractError(422, await badEncoding.json())).toBe(true);
    const longParam = await fetch(`${server.url}/api/v1/records/${'a'.repeat(600)}`, { headers: { 'X-Argilla-Api-Key': OWNER.apiKey } });
    expect(longParam.status).toBe(422);
    expect(isContractError(422, await longParam.json())).toBe(true);
    const longUrl = await rawRequest(server.url, `GET /api/v1/me?q=${'x'.repeat(20_000)} HTTP/1.1`);
    expect(longUrl.status).toBe(431);
    expect(JSON.parse(longUrl.body)).toEqual({ detail: 'Request Header Fields Too Large' });
  });
});

describe('logs', () => {
  it('never contain passwords, tokens or API keys, even at info level and on errors', async () => {
    const child = await startChildServer({ env: { SCHOLIA_LOG_LEVEL: 'info' } });
    try {
      const owner = new TestApi(child.url, { apiKey: CHILD_OWNER.apiKey });
      const user = await owner.post('/users', { username: 'log-check', first_name: 'L', role: 'admin', password: 'log-check-password-9' });
      expect(user.status).toBe(201);
      const token = (await login(owner.as(undefined), 'log-check', 'log-check-password-9')).body.access_token as string;
      expect(typeof token).toBe('string');
      const userKey = (await owner.as({ token }).get('/me')).body.api_key as string;
      await owner.as({ token: `${token}x` }).get('/me');
      await owner.as({ apiKey: userKey }).get('/me/workspaces');
      await owner.as({ apiKey: 'wrong-key-zz9' }).get('/me');
      await login(owner.as(undefined), 'log-check', 'wrong-password-zz8');
      const ws = await owner.post('/workspaces', { name: 'log-ws' });
      const ds = await owner.post('/datasets', { name: 'log-ds', workspace_id: ws.body.id });
      await owner.post(`/datasets/${ds.body.id}/export`, { name: 'a/b', token: 'hf_exportsecret_zz7' });
      await owner.get(`/oauth2/providers/huggingface/access-token?code=oauth-code-zz6&state=s`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const output = child.output();
      expect(output).toContain('"statusCode"'); // request logging was on
      for (const secret of [CHILD_OWNER.apiKey, CHILD_OWNER.password, userKey, token, 'log-check-password-9', 'wrong-key-zz9', 'wrong-password-zz8', 'hf_exportsecret_zz7']) {
        expect(output.includes(secret), `secret found in logs: ${secret.slice(0, 12)}…`).toBe(false);
      }
    } finally {
      await child.stop();
    }
  }, 90_000);
});
