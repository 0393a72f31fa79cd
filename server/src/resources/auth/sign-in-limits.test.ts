import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTestServer, type TestServer } from '../../../test/test-server.js';
import { TestApi } from '../../../test/api-client.js';
import { createUser } from '../../../test/fixtures.js';

/**
 * Sign-in limits: per client address across usernames (SCHOLIA_LOGIN_RATE_LIMIT), per username
 * across clients (backoff after SCHOLIA_LOGIN_BACKOFF_AFTER_FAILURES), the client address taken
 * from X-Forwarded-For only when SCHOLIA_TRUSTED_PROXIES names the proxy; and the password length cap.
 */
let proxied: TestServer;
let direct: TestServer;

beforeAll(async () => {
  const limits = { SCHOLIA_LOGIN_RATE_LIMIT: '5', SCHOLIA_LOGIN_BACKOFF_AFTER_FAILURES: '3' };
  proxied = await startTestServer({ env: { ...limits, SCHOLIA_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8' } });
  direct = await startTestServer({ env: limits });
});
afterAll(async () => {
  await proxied?.close();
  await direct?.close();
});

let clientNumber = 0;
/** A client address behind the trusted proxy that has not signed in yet. */
const newClient = () => `203.0.113.${++clientNumber}`;

async function signIn(server: TestServer, username: string, password: string, forwardedFor?: string) {
  const res = await fetch(`${server.url}/api/v1/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}) },
    body: new URLSearchParams({ username, password }).toString(),
  });
  return { status: res.status, body: (await res.json()) as any, retryAfter: Number(res.headers.get('retry-after')) };
}

function expectTooMany(res: { status: number; body: any; retryAfter: number }, detail: RegExp) {
  expect(res.status).toBe(429);
  expect(res.body.detail).toMatch(detail);
  expect(res.retryAfter).toBeGreaterThan(0);
}

describe('per client address', () => {
  it('slows one password tried across many usernames, whatever the names', async () => {
    const client = newClient();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await signIn(proxied, `sprayed-${i}`, 'Summer2026!', client)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expectTooMany(await signIn(proxied, 'sprayed-5', 'Summer2026!', client), /from this address/);
    // Even the right password of a real user waits: the limit counts attempts, not names.
    expectTooMany(await signIn(proxied, OWNER.username, OWNER.password, client), /from this address/);
    // Another client behind the same proxy is not slowed by it.
    expect((await signIn(proxied, OWNER.username, OWNER.password, newClient())).status).toBe(201);
  });

  it('ignores X-Forwarded-For from a peer that is not a configured proxy (no way around the limit)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await signIn(direct, `spoof-${i}`, 'guess', `198.51.100.${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('walks a chain of trusted proxies (CIDR ranges too) to the first untrusted address', async () => {
    const client = newClient();
    const statuses: number[] = [];
    // Each attempt passes a different proxy of 10.0.0.0/8: still the same client.
    for (let i = 0; i < 5; i += 1) statuses.push((await signIn(proxied, `chained-${i}`, 'guess', `${client}, 10.${i}.0.1`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expectTooMany(await signIn(proxied, 'chained-5', 'guess', `${client}, 10.9.0.1`), /from this address/);
  });

  it('does not let a client choose its address by prepending to X-Forwarded-For', async () => {
    const client = newClient();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await signIn(proxied, `prepended-${i}`, 'guess', `198.51.100.${i}, ${client}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('takes the address the trusted proxy forwarded', () => {
    expect(proxied.app.config.trustedProxies).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(direct.app.config.trustedProxies).toEqual([]);
  });
});

describe('per username', () => {
  it('backs off failed attempts on one account across clients, then lets the right password in', async () => {
    const user = await createUser(new TestApi(proxied.url));
    for (let i = 0; i < 3; i += 1) expect((await signIn(proxied, user.username, `wrong-${i}`, newClient())).status).toBe(401);
    // A fresh client, with the right password: still waits, or the limit would only cost a new address.
    const waiting = await signIn(proxied, user.username, user.password, newClient());
    expectTooMany(waiting, /for this username/);
    expect(waiting.retryAfter).toBeLessThanOrEqual(60);
    // Other accounts are not slowed by it.
    expect((await signIn(proxied, OWNER.username, OWNER.password, newClient())).status).toBe(201);
    // A backoff, not a lockout: after Retry-After the owner of the account signs in.
    await new Promise((resolve) => setTimeout(resolve, waiting.retryAfter * 1000 + 50));
    expect((await signIn(proxied, user.username, user.password, newClient())).status).toBe(201);
    // The success starts the name afresh: a typo afterwards is not slowed.
    expect((await signIn(proxied, user.username, 'typo', newClient())).status).toBe(401);
  });

  it('answers the same for a username that does not exist (no hint which names are real)', async () => {
    for (let i = 0; i < 3; i += 1) expect((await signIn(proxied, 'no-such-user', `wrong-${i}`, newClient())).status).toBe(401);
    expectTooMany(await signIn(proxied, 'no-such-user', 'again', newClient()), /for this username/);
  });

  it('counts parallel guesses before any is verified', async () => {
    const user = await createUser(new TestApi(proxied.url));
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => signIn(proxied, user.username, `burst-${i}`, newClient())));
    const statuses = answers.map((a) => a.status).sort();
    // Three free failures; on a slow machine the burst may outlast the first 1 s wait and let one
    // or two more through, but never the eight that verifying before counting would let through.
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(3);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBe(8 - statuses.filter((s) => s === 401).length);
  });
});

describe('password length', () => {
  const huge = 'p'.repeat(1025);

  it('refuses a sign-in password over 1024 characters with 422, before it is hashed', async () => {
    const res = await signIn(proxied, OWNER.username, huge, newClient());
    expect(res.status).toBe(422);
    expect(res.body.detail.params.errors[0]).toMatchObject({ loc: ['body', 'password'] });
  });

  it('refuses passwords over 100 characters on user create and password change (contract: 8..100)', async () => {
    const owner = new TestApi(proxied.url, { apiKey: OWNER.apiKey });
    for (const password of ['p'.repeat(101), huge]) {
      const created = await owner.post('/users', { username: `long-${password.length}`, first_name: 'L', password });
      expect(created.status).toBe(422);
      expect(created.body.detail.params.errors[0]).toMatchObject({ loc: ['body', 'password'] });
    }
    const user = await createUser(owner);
    const changed = await owner.patch(`/users/${user.id}`, { password: 'p'.repeat(101) });
    expect(changed.status).toBe(422);
    expect((await signIn(proxied, user.username, user.password, newClient())).status).toBe(201);
  });
});

describe('username length', () => {
  it('refuses a sign-in username over 200 characters with 422, before it is looked up or counted', async () => {
    const long = 'u'.repeat(201);
    // The backoff would answer 429 to the fourth attempt on one name: these never reach it.
    for (let i = 0; i < 4; i += 1) {
      const res = await signIn(proxied, long, `guess-${i}`, newClient());
      expect(res.status).toBe(422);
      expect(res.body.detail.params.errors).toEqual([{ type: 'string_too_long', loc: ['body', 'username'], msg: 'String should have at most 200 characters' }]);
    }
    expect((await signIn(proxied, 'u'.repeat(1024 * 1024), 'guess', newClient())).status).toBe(422);
    expect((await signIn(proxied, 'u'.repeat(200), 'guess', newClient())).status).toBe(401);
  });

  it('refuses usernames over 200 characters on user create and rename, so every user can sign in', async () => {
    const owner = new TestApi(proxied.url, { apiKey: OWNER.apiKey });
    const created = await owner.post('/users', { username: 'c'.repeat(201), first_name: 'L', password: 'long-name-password' });
    expect(created.status).toBe(422);
    expect(created.body.detail.params.errors[0]).toMatchObject({ loc: ['body', 'username'] });
    const user = await createUser(owner);
    const renamed = await owner.patch(`/users/${user.id}`, { username: 'r'.repeat(201) });
    expect(renamed.status).toBe(422);
    const longest = await owner.post('/users', { username: 'c'.repeat(200), first_name: 'L', password: 'long-name-password' });
    expect(longest.status).toBe(201);
    expect((await signIn(proxied, 'c'.repeat(200), 'long-name-password', newClient())).status).toBe(201);
  });
});
