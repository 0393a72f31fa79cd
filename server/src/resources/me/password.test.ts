import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTestServer, type TestServer } from '../../../test/test-server.js';
import { TestApi } from '../../../test/api-client.js';
import { createUser, signIn, uniqueName, type Role } from '../../../test/fixtures.js';
import { setUserIdentity } from '../../storage/repositories/users.repository.js';

/** `PUT /me/password`: a user changes their own password, proven by the current one. */
let server: TestServer;
let api: TestApi;

beforeAll(async () => {
  // Two free failures, so the backoff is reached within a test.
  server = await startTestServer({ env: { SCHOLIA_LOGIN_BACKOFF_AFTER_FAILURES: '2' } });
  api = new TestApi(server.url);
});
afterAll(() => server.close());

const tokenStatus = async (username: string, password: string) => {
  const form = new URLSearchParams({ username, password }).toString();
  return (await api.request('POST', '/token', form, { 'Content-Type': 'application/x-www-form-urlencoded' })).status;
};
const change = (client: TestApi, current_password: string, new_password: string) => client.put('/me/password', { current_password, new_password });

describe('changing one\'s own password', () => {
  for (const role of ['owner', 'admin', 'annotator'] as Role[]) {
    it(`works for the ${role}: the new password signs in, the old one no longer does`, async () => {
      const user = await createUser(api, { role });
      const token = await signIn(api, user.username, user.password);
      const res = await change(api.as({ token }), user.password, 'a brand new password');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
      expect(await tokenStatus(user.username, 'a brand new password')).toBe(201);
      expect(await tokenStatus(user.username, user.password)).toBe(401);
    });
  }

  it('ends every token issued before, keeps the API key, and the answer carries a token that works', async () => {
    const user = await createUser(api);
    const asking = await signIn(api, user.username, user.password);
    const otherSession = await signIn(api, user.username, user.password);
    const res = await change(api.as({ token: asking }), user.password, 'another new password');
    expect(res.status).toBe(200);
    expect((await api.as({ token: asking }).get('/me')).status).toBe(401);
    expect((await api.as({ token: otherSession }).get('/me')).status).toBe(401);
    const me = await api.as({ token: res.body.access_token }).get('/me');
    expect(me.body).toMatchObject({ id: user.id, api_key: user.apiKey });
    expect((await user.api.get('/me')).status).toBe(200);
  });

  it('is allowed with an API key, the current password being the proof', async () => {
    const user = await createUser(api);
    expect((await change(user.api, user.password, 'changed with the key')).status).toBe(200);
    expect(await tokenStatus(user.username, 'changed with the key')).toBe(201);
  });

  it("changes only the caller's password, never another user's", async () => {
    const user = await createUser(api);
    const other = await createUser(api);
    // Another user's current password proves nothing about the caller's account.
    expect((await change(user.api, other.password, 'takeover-password')).status).toBe(403);
    expect((await change(user.api, user.password, 'my own new password')).status).toBe(200);
    expect(await tokenStatus(other.username, other.password)).toBe(201);
    expect(await tokenStatus(other.username, 'my own new password')).toBe(401);
  });
});

describe('refusals', () => {
  it('needs credentials', async () => {
    const res = await change(api, OWNER.password, 'whatever-password');
    expect(res.status).toBe(401);
  });

  it('refuses a wrong current password with 403 and a clear detail, changing nothing', async () => {
    const user = await createUser(api);
    const res = await change(user.api, 'not-my-password', 'a brand new password');
    expect(res.status).toBe(403);
    expect(res.body.detail.params.detail).toBe('The current password is wrong');
    expect(await tokenStatus(user.username, user.password)).toBe(201);
    expect(await tokenStatus(user.username, 'a brand new password')).toBe(401);
  });

  it.each([
    ['too short', { current_password: 'x', new_password: 'seven77' }, 'new_password'],
    ['too long', { current_password: 'x', new_password: 'x'.repeat(101) }, 'new_password'],
    ['missing the current password', { new_password: 'long enough' }, 'current_password'],
  ])('answers 422 for a new password %s', async (_case, body, field) => {
    const user = await createUser(api);
    const res = await user.api.put('/me/password', body);
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain(field);
    expect(await tokenStatus(user.username, user.password)).toBe(201);
  });

  it('counts wrong current passwords in the sign-in backoff, both ways', async () => {
    const user = await createUser(api);
    expect((await change(user.api, 'wrong-1', 'next password')).status).toBe(403);
    expect((await change(user.api, 'wrong-2', 'next password')).status).toBe(403);
    // The third try waits, even with the right password, and sign-in waits with it.
    const refused = await change(user.api, user.password, 'next password');
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/Too many wrong passwords/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await tokenStatus(user.username, user.password)).toBe(429);

    const signedInWrong = await createUser(api);
    expect(await tokenStatus(signedInWrong.username, 'wrong-1')).toBe(401);
    expect(await tokenStatus(signedInWrong.username, 'wrong-2')).toBe(401);
    expect((await change(signedInWrong.api, signedInWrong.password, 'next password')).status).toBe(429);
  });

  it('tells a user whose account was created by a provider sign-in that it has no password of its own', async () => {
    const user = await createUser(api, { username: uniqueName('hf') });
    await setUserIdentity(server.app.database.db, user.id, { provider: 'huggingface', subject: `hf-${user.id}` }, new Date().toISOString());
    const res = await change(user.api, 'a guess at it', 'a brand new password');
    expect(res.status).toBe(403);
    expect(res.body.detail.params.detail).toMatch(/^The current password is wrong\. An account created by signing in with huggingface has no password/);
  });
});
