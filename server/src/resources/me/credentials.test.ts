import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import fs from 'node:fs';
import path from 'node:path';
import { OWNER, startTestServer, type TestServer } from '../../../test/test-server.js';
import { TestApi } from '../../../test/api-client.js';
import { createUser, ownApiKey, signIn, UNAUTHORIZED, type TestUser } from '../../../test/fixtures.js';

/** Credentials end when they should: user deleted, name reused, password changed, key rotated. */
let server: TestServer;
let api: TestApi;
let owner: TestApi;

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url);
  owner = api.as({ apiKey: OWNER.apiKey });
});
afterAll(() => server.close());

const tokenOf = (user: TestUser) => signIn(api, user.username, user.password);
const meWith = async (credentials: { apiKey: string } | { token: string }) => api.as(credentials).get('/me');

async function expectRefused(credentials: { apiKey: string } | { token: string }) {
  const res = await meWith(credentials);
  expect(res.status).toBe(401);
}

describe('tokens name the user by id', () => {
  it("a deleted user's token is refused, also once the name belongs to someone else", async () => {
    const first = await createUser(api, { password: 'first-password' });
    const token = await tokenOf(first);
    expect((await meWith({ token })).body.id).toBe(first.id);
    expect((await owner.delete(`/users/${first.id}`)).status).toBe(200);
    await expectRefused({ token });
    await expectRefused({ apiKey: first.apiKey });
    const second = await createUser(api, { username: first.username, password: 'second-password', role: 'admin' });
    const refused = await meWith({ token });
    expect(refused.status).toBe(401);
    expect(refused.body.detail.params.detail).toBe('Invalid token');
    expect((await meWith({ token: await tokenOf(second) })).body).toMatchObject({ id: second.id, role: 'admin' });
  });

  it('a renamed user keeps its token (the id did not change)', async () => {
    const user = await createUser(api);
    const token = await tokenOf(user);
    expect((await owner.patch(`/users/${user.id}`, { username: `${user.username}-renamed` })).status).toBe(200);
    expect((await meWith({ token })).body.username).toBe(`${user.username}-renamed`);
  });

  it('refuses a correctly signed token without a version (issued before revocation existed)', async () => {
    const secret = new TextEncoder().encode(fs.readFileSync(path.join(server.dataDir, 'jwt-secret'), 'utf8').trim());
    const me = (await owner.get('/me')).body;
    const legacy = await new SignJWT({ identity: me.id, username: OWNER.username, role: 'owner' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) + 600)
      .sign(secret);
    await expectRefused({ token: legacy });
  });
});

describe('a password change ends earlier tokens and keys', () => {
  it("an owner's reset of another user's password ends that user's tokens and key, not the owner's", async () => {
    const user = await createUser(api);
    const tokens = [await tokenOf(user), await tokenOf(user)];
    const ownerToken = await signIn(api, OWNER.username, OWNER.password);
    const res = await owner.patch(`/users/${user.id}`, { password: 'reset-by-owner' });
    expect(res.status).toBe(200);
    for (const token of tokens) await expectRefused({ token });
    await expectRefused({ apiKey: user.apiKey });
    const newKey = await ownApiKey(api, user.username, 'reset-by-owner');
    expect(newKey).not.toBe(user.apiKey);
    expect((await meWith({ apiKey: newKey })).body.id).toBe(user.id);
    expect((await meWith({ token: ownerToken })).status).toBe(200);
  });

  it('sending the current password again (as the SDK may on update) changes nothing', async () => {
    const user = await createUser(api);
    const token = await tokenOf(user);
    expect((await owner.patch(`/users/${user.id}`, { password: user.password, last_name: 'Same' })).status).toBe(200);
    expect((await meWith({ token })).status).toBe(200);
    expect((await meWith({ apiKey: user.apiKey })).status).toBe(200);
  });

  it("an owner changing its own password ends its own earlier tokens and key", async () => {
    const second = await createUser(api, { role: 'owner' });
    const token = await tokenOf(second);
    expect((await second.api.patch(`/users/${second.id}`, { password: 'owner-new-password' })).status).toBe(200);
    await expectRefused({ token });
    await expectRefused({ apiKey: second.apiKey });
    expect((await meWith({ token: await signIn(api, second.username, 'owner-new-password') })).status).toBe(200);
  });
});

describe('POST /me/api-key', () => {
  it('rotates the key of the caller: the old key and tokens are refused, the new key and the returned token work', async () => {
    for (const role of ['annotator', 'admin', 'owner'] as const) {
      const user = await createUser(api, { role });
      const oldToken = await tokenOf(user);
      const res = await user.api.post('/me/api-key');
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(['access_token', 'api_key', 'token_type']);
      expect(res.body.token_type).toBe('bearer');
      expect(res.body.api_key).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(res.body.api_key).not.toBe(user.apiKey);
      await expectRefused({ apiKey: user.apiKey });
      await expectRefused({ token: oldToken });
      const byKey = await meWith({ apiKey: res.body.api_key });
      expect(byKey.body).toMatchObject({ id: user.id, api_key: res.body.api_key });
      expect((await meWith({ token: res.body.access_token })).body.id).toBe(user.id);
      // The password is untouched.
      expect((await meWith({ token: await tokenOf(user) })).status).toBe(200);
    }
  });

  it('rotates from a session token too, and each rotation ends the token of the one before', async () => {
    const user = await createUser(api);
    let token = await tokenOf(user);
    const keys = new Set<string>([user.apiKey]);
    for (let i = 0; i < 3; i += 1) {
      const res = await api.as({ token }).post('/me/api-key');
      expect(res.status).toBe(201);
      await expectRefused({ token });
      keys.add(res.body.api_key);
      token = res.body.access_token;
    }
    expect(keys.size).toBe(4);
    expect((await meWith({ token })).body.id).toBe(user.id);
  });

  it('touches no other user', async () => {
    const [user, other] = [await createUser(api), await createUser(api)];
    const otherToken = await tokenOf(other);
    expect((await user.api.post('/me/api-key')).status).toBe(201);
    expect((await meWith({ apiKey: other.apiKey })).status).toBe(200);
    expect((await meWith({ token: otherToken })).status).toBe(200);
    expect((await meWith({ apiKey: OWNER.apiKey })).status).toBe(200);
  });

  it('401s without credentials', async () => {
    const res = await api.post('/me/api-key');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });
});

describe('the last owner stays', () => {
  it('refuses to delete or demote the only owner (409 with detail), and allows it once another owner exists', async () => {
    const me = (await owner.get('/me')).body;
    // Other owners made by earlier tests are demoted first, so the bootstrap owner is the only one.
    for (const user of (await owner.get('/users')).body.items) {
      if (user.role === 'owner' && user.id !== me.id) expect((await owner.patch(`/users/${user.id}`, { role: 'admin' })).status).toBe(200);
    }
    const deleted = await owner.delete(`/users/${me.id}`);
    expect(deleted.status).toBe(409);
    expect(deleted.body.detail).toMatch(/last owner/);
    for (const role of ['admin', 'annotator']) {
      const demoted = await owner.patch(`/users/${me.id}`, { role });
      expect(demoted.status).toBe(409);
      expect(demoted.body.detail).toMatch(/last owner/);
    }
    // Keeping the role, or other changes, stay allowed.
    expect((await owner.patch(`/users/${me.id}`, { role: 'owner', last_name: 'Kept' })).status).toBe(200);
    expect((await owner.get('/me')).body.role).toBe('owner');

    const second = await createUser(api, { role: 'owner' });
    expect((await second.api.patch(`/users/${me.id}`, { role: 'admin' })).status).toBe(200);
    // Now `second` is the only owner: it cannot leave either way.
    expect((await second.api.patch(`/users/${second.id}`, { role: 'annotator' })).status).toBe(409);
    expect((await second.api.delete(`/users/${second.id}`)).status).toBe(409);
    expect((await second.api.patch(`/users/${me.id}`, { role: 'owner' })).status).toBe(200);
    expect((await owner.delete(`/users/${second.id}`)).status).toBe(200);
    expect((await owner.get('/me')).body.role).toBe('owner');
  });
});
