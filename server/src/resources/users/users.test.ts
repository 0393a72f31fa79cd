import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTestServer, type TestServer } from '../../../test/test-server.js';
import { TestApi } from '../../../test/api-client.js';
import {
  FORBIDDEN,
  UNAUTHORIZED,
  addMember,
  createPrincipals,
  createUser,
  createWorkspace,
  ownApiKey,
  uniqueName,
  validationError,
  type Principals,
} from '../../../test/fixtures.js';

let server: TestServer;
let api: TestApi;
let owner: TestApi;
let p: Principals;
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url);
  owner = api.as({ apiKey: OWNER.apiKey });
  p = await createPrincipals(api);
});
afterAll(() => server.close());

/** Never `api_key`: a user's key is shown to that user alone, on GET /me. */
const USER_KEYS = ['first_name', 'id', 'inserted_at', 'last_name', 'role', 'updated_at', 'username'];
const notFound = (id: string) => ({ detail: `User with id \`${id}\` not found` });

/** Non-owners get 403 and anonymous callers 401 (owner-only routes, contract §1.5). */
async function expectOwnerOnly(call: (client: TestApi) => Promise<{ status: number; body: unknown }>) {
  for (const user of [p.adminMember, p.adminOutsider, p.annotatorMember, p.annotatorOutsider]) {
    const res = await call(user.api);
    expect(res.status, user.username).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  }
  const anonymous = await call(p.anonymous);
  expect(anonymous.status).toBe(401);
  expect(anonymous.body).toEqual(UNAUTHORIZED);
}

describe('GET /users', () => {
  it('lists every user oldest first, the bootstrap owner first', async () => {
    const res = await owner.get('/users');
    expect(res.status).toBe(200);
    expect(res.body.items[0].username).toBe(OWNER.username);
    expect(res.body.items.map((u: { id: string }) => u.id)).toEqual(
      expect.arrayContaining([p.adminMember.id, p.annotatorOutsider.id]),
    );
    expect(Object.keys(res.body.items[0]).sort()).toEqual(USER_KEYS);
    const inserted = res.body.items.map((u: { inserted_at: string }) => u.inserted_at);
    expect([...inserted].sort()).toEqual(inserted);
  });

  it('is owner-only', () => expectOwnerOnly((c) => c.get('/users')));
});

describe('GET /users/{user_id}', () => {
  it('returns the user object', async () => {
    const res = await owner.get(`/users/${p.adminMember.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: p.adminMember.id, username: p.adminMember.username, role: 'admin', last_name: null });
    expect(Object.keys(res.body).sort()).toEqual(USER_KEYS);
    expect(res.body.inserted_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?$/);
  });

  it('404s for an unknown id', async () => {
    const res = await owner.get(`/users/${MISSING_ID}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFound(MISSING_ID));
  });

  it('gives the validation shape for a malformed id', async () => {
    const res = await owner.get('/users/not-a-uuid');
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      validationError({ type: 'uuid_parsing', loc: ['path', 'user_id'], msg: 'Input should be a valid UUID' }),
    );
  });

  it('authorizes before loading: non-owners get 403 even for an unknown id', async () => {
    await expectOwnerOnly((c) => c.get(`/users/${p.adminMember.id}`));
    const res = await p.adminMember.api.get(`/users/${MISSING_ID}`);
    expect(res.status).toBe(403);
  });
});

describe('POST /users', () => {
  it('creates an annotator by default, trims first_name, ignores unknown keys; the new key is only on its own /me', async () => {
    const username = uniqueName('new');
    const res = await owner.post('/users', {
      id: null,
      username,
      first_name: '  Ada ',
      last_name: null,
      password: 'secret-password',
      inserted_at: null,
      updated_at: null,
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(USER_KEYS);
    expect(res.body).toMatchObject({ username, first_name: 'Ada', last_name: null, role: 'annotator' });
    const apiKey = await ownApiKey(api, username, 'secret-password');
    expect(apiKey).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const me = await api.as({ apiKey }).get('/me');
    expect(me.body.id).toBe(res.body.id);
  });

  it('accepts a client-chosen id and role', async () => {
    const id = '11111111-2222-4333-8444-555555555555';
    const res = await owner.post('/users', { id, username: uniqueName('admin'), first_name: 'A', last_name: 'B', role: 'admin', password: '12345678' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id, role: 'admin', last_name: 'B' });
    const again = await owner.post('/users', { id, username: uniqueName('admin'), first_name: 'A', password: '12345678' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: `User with id \`${id}\` is not unique` });
  });

  it('409s on a duplicate username', async () => {
    const res = await owner.post('/users', { username: p.annotatorMember.username, first_name: 'x', password: '12345678' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: `User username \`${p.annotatorMember.username}\` is not unique` });
  });

  it('422s without a password (validation shape)', async () => {
    const res = await owner.post('/users', { username: uniqueName('nopw'), first_name: 'x' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(validationError({ type: 'missing', loc: ['body', 'password'], msg: 'Field required' }));
  });

  it('422s on a short password, a blank first_name and an unknown role', async () => {
    const short = await owner.post('/users', { username: uniqueName('u'), first_name: 'x', password: '1234567' });
    expect(short.status).toBe(422);
    expect(short.body.detail.params.errors[0]).toMatchObject({ type: 'string_too_short', loc: ['body', 'password'] });

    const blank = await owner.post('/users', { username: uniqueName('u'), first_name: '   ', password: '12345678' });
    expect(blank.status).toBe(422);
    expect(blank.body).toEqual(
      validationError({ type: 'string_too_short', loc: ['body', 'first_name'], msg: 'String should have at least 1 character' }),
    );

    const role = await owner.post('/users', { username: uniqueName('u'), first_name: 'x', password: '12345678', role: 'king' });
    expect(role.status).toBe(422);
    expect(role.body).toEqual(
      validationError({ type: 'literal_error', loc: ['body', 'role'], msg: "Input should be 'owner', 'admin' or 'annotator'" }),
    );
  });

  it('is owner-only (checked before the body is used)', () =>
    expectOwnerOnly((c) => c.post('/users', { username: uniqueName('x'), first_name: 'x', password: '12345678' })));
});

describe('PATCH /users/{user_id}', () => {
  it('updates the keys sent and bumps updated_at', async () => {
    const user = await createUser(api);
    const before = (await owner.get(`/users/${user.id}`)).body;
    const renamed = uniqueName('renamed');
    const res = await owner.patch(`/users/${user.id}`, { username: renamed, first_name: ' Grace ', last_name: 'Hopper', role: 'admin' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, username: renamed, first_name: 'Grace', last_name: 'Hopper', role: 'admin' });
    expect(res.body.inserted_at).toBe(before.inserted_at);
    expect(res.body.updated_at > before.updated_at).toBe(true);
    expect((await owner.get(`/users/${user.id}`)).body).toEqual(res.body);

    const cleared = await owner.patch(`/users/${user.id}`, { last_name: null });
    expect(cleared.body.last_name).toBeNull();
  });

  it('changes the password used to log in', async () => {
    const user = await createUser(api);
    expect((await owner.patch(`/users/${user.id}`, { password: 'brand-new-password' })).status).toBe(200);
    const form = (password: string) =>
      fetch(`${server.url}/api/v1/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: user.username, password }).toString(),
      });
    expect((await form(user.password)).status).toBe(401);
    expect((await form('brand-new-password')).status).toBe(201);
  });

  it('422s when renaming onto an existing username', async () => {
    const user = await createUser(api);
    const res = await owner.patch(`/users/${user.id}`, { username: p.adminOutsider.username });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: `Username '${p.adminOutsider.username}' already exists` });
    const same = await owner.patch(`/users/${user.id}`, { username: user.username });
    expect(same.status).toBe(200);
  });

  it('rejects null for non-nullable keys', async () => {
    const user = await createUser(api);
    const res = await owner.patch(`/users/${user.id}`, { username: null });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(validationError({ type: 'string_type', loc: ['body', 'username'], msg: 'Input should be a valid string' }));
  });

  it('loads before authorizing: 404 for everyone on an unknown id, then 403 for non-owners', async () => {
    const missing = await p.annotatorMember.api.patch(`/users/${MISSING_ID}`, { first_name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFound(MISSING_ID));
    await expectOwnerOnly((c) => c.patch(`/users/${p.annotatorOutsider.id}`, { first_name: 'x' }));
  });
});

describe('DELETE /users/{user_id}', () => {
  it('deletes the user and returns it', async () => {
    const user = await createUser(api);
    const ws = await createWorkspace(api);
    await addMember(api, ws.id, user.id);
    const res = await owner.delete(`/users/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, username: user.username });
    expect((await owner.get(`/users/${user.id}`)).status).toBe(404);
    expect((await user.api.get('/me')).status).toBe(401);
    expect((await owner.get(`/workspaces/${ws.id}/users`)).body.items).toEqual([]);
  });

  it('loads before authorizing: 404 for an unknown id, 403 for non-owners', async () => {
    const missing = await p.adminMember.api.delete(`/users/${MISSING_ID}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFound(MISSING_ID));
    await expectOwnerOnly((c) => c.delete(`/users/${p.annotatorOutsider.id}`));
  });
});

describe('GET /users/{user_id}/workspaces', () => {
  it("lists a member's workspaces in creation order", async () => {
    const user = await createUser(api);
    const first = await createWorkspace(api);
    const second = await createWorkspace(api);
    await addMember(api, second.id, user.id);
    await addMember(api, first.id, user.id);
    const res = await owner.get(`/users/${user.id}/workspaces`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((w: { id: string }) => w.id)).toEqual([first.id, second.id]);
    expect(Object.keys(res.body.items[0]).sort()).toEqual(['id', 'inserted_at', 'name', 'updated_at']);
  });

  it('gives every workspace for an owner target', async () => {
    const ownerId = (await owner.get('/me')).body.id;
    const all = (await owner.get('/me/workspaces')).body.items;
    const res = await owner.get(`/users/${ownerId}/workspaces`);
    expect(res.body.items).toEqual(all);
    expect(all.length).toBeGreaterThan(0);
  });

  it('404s for an unknown user; authorizes first', async () => {
    const res = await owner.get(`/users/${MISSING_ID}/workspaces`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFound(MISSING_ID));
    expect((await p.adminMember.api.get(`/users/${MISSING_ID}/workspaces`)).status).toBe(403);
    await expectOwnerOnly((c) => c.get(`/users/${p.adminMember.id}/workspaces`));
  });
});
