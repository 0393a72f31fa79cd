import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTestServer, type TestServer } from '../../../test/test-server.js';
import { TestApi } from '../../../test/api-client.js';
import { UNAUTHORIZED, addMember, createPrincipals, createWorkspace, type Principals } from '../../../test/fixtures.js';

let server: TestServer;
let api: TestApi;
let owner: TestApi;
let p: Principals;

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url);
  owner = api.as({ apiKey: OWNER.apiKey });
  p = await createPrincipals(api);
});
afterAll(() => server.close());

describe('GET /me', () => {
  it('returns exactly the user object of contract §1.4', async () => {
    const res = await owner.get('/me');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['api_key', 'first_name', 'id', 'inserted_at', 'last_name', 'role', 'updated_at', 'username']);
    expect(res.body).toMatchObject({ username: OWNER.username, first_name: OWNER.username, last_name: null, role: 'owner', api_key: OWNER.apiKey });
  });

  it('answers every role, with an API key or a bearer token', async () => {
    for (const user of [p.adminMember, p.adminOutsider, p.annotatorMember, p.annotatorOutsider]) {
      const res = await user.api.get('/me');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: user.id, username: user.username, role: user.role, api_key: user.apiKey });
    }
    const form = new URLSearchParams({ username: p.annotatorMember.username, password: p.annotatorMember.password });
    const login = await fetch(`${server.url}/api/v1/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const res = await api.as({ token }).get('/me');
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(p.annotatorMember.id);
  });

  it('401s without credentials, with an unknown key, and with a bad token', async () => {
    for (const client of [p.anonymous, api.as({ apiKey: 'nope' })]) {
      const res = await client.get('/me');
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    }
    const res = await api.as({ token: 'not.a.jwt' }).get('/me');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: { code: 'argilla.api.errors::UnauthorizedError', params: { detail: 'Invalid token' } } });
  });
});

describe('GET /me/workspaces', () => {
  it('gives the owner every workspace in creation order', async () => {
    const later = await createWorkspace(api);
    const res = await owner.get('/me/workspaces');
    expect(res.status).toBe(200);
    const ids = res.body.items.map((w: { id: string }) => w.id);
    expect(ids).toEqual([p.workspace.id, later.id]);
    expect(Object.keys(res.body.items[0]).sort()).toEqual(['id', 'inserted_at', 'name', 'updated_at']);
  });

  it('gives others their memberships in workspace creation order', async () => {
    const a = await createWorkspace(api);
    const b = await createWorkspace(api);
    await addMember(api, b.id, p.adminOutsider.id);
    await addMember(api, a.id, p.adminOutsider.id);
    const res = await p.adminOutsider.api.get('/me/workspaces');
    expect(res.body.items.map((w: { id: string }) => w.id)).toEqual([a.id, b.id]);

    for (const user of [p.adminMember, p.annotatorMember]) {
      const member = await user.api.get('/me/workspaces');
      expect(member.status).toBe(200);
      expect(member.body.items.map((w: { id: string }) => w.id)).toEqual([p.workspace.id]);
    }
    expect((await p.annotatorOutsider.api.get('/me/workspaces')).body).toEqual({ items: [] });
  });

  it('401s anonymous callers', async () => {
    const res = await p.anonymous.get('/me/workspaces');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });
});
