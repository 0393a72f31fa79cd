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
  uniqueName,
  validationError,
  type Principals,
} from '../../../test/fixtures.js';
import { newId } from '../../lib/ids.js';
import { nowTimestamp } from '../../lib/time.js';

let server: TestServer;
let api: TestApi;
let owner: TestApi;
let p: Principals;
const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const WORKSPACE_KEYS = ['id', 'inserted_at', 'name', 'updated_at'];

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url);
  owner = api.as({ apiKey: OWNER.apiKey });
  p = await createPrincipals(api);
});
afterAll(() => server.close());

const notFound = (id: string) => ({ detail: `Workspace with id \`${id}\` not found` });

/** A dataset row straight in storage: the datasets resource is not under test here. */
async function insertDataset(workspaceId: string): Promise<void> {
  const now = nowTimestamp();
  await server.app.database.db
    .insertInto('datasets')
    .values({
      id: newId(),
      name: uniqueName('ds'),
      guidelines: null,
      allow_extra_metadata: 1,
      status: 'draft',
      distribution: JSON.stringify({ strategy: 'overlap', min_submitted: 1 }),
      metadata: null,
      workspace_id: workspaceId,
      last_activity_at: now,
      inserted_at: now,
      updated_at: now,
    })
    .execute();
}

describe('GET /workspaces/{workspace_id}', () => {
  it('returns the workspace to the owner and to members of any role', async () => {
    for (const client of [owner, p.adminMember.api, p.annotatorMember.api]) {
      const res = await client.get(`/workspaces/${p.workspace.id}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(WORKSPACE_KEYS);
      expect(res.body).toMatchObject({ id: p.workspace.id, name: p.workspace.name });
    }
  });

  it('403s for non-members, 401s for anonymous callers', async () => {
    for (const user of [p.adminOutsider, p.annotatorOutsider]) {
      const res = await user.api.get(`/workspaces/${p.workspace.id}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    const res = await p.anonymous.get(`/workspaces/${p.workspace.id}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it('404s for the owner on an unknown id; authorizes first for others (403)', async () => {
    const res = await owner.get(`/workspaces/${MISSING_ID}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFound(MISSING_ID));
    expect((await p.adminMember.api.get(`/workspaces/${MISSING_ID}`)).status).toBe(403);
  });

  it('gives the validation shape for a malformed id', async () => {
    const res = await owner.get('/workspaces/123');
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      validationError({ type: 'uuid_parsing', loc: ['path', 'workspace_id'], msg: 'Input should be a valid UUID' }),
    );
  });
});

describe('POST /workspaces', () => {
  it('creates a workspace (201), ignoring unknown keys', async () => {
    const name = uniqueName('created');
    const res = await owner.post('/workspaces', { name, id: null, inserted_at: null });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(WORKSPACE_KEYS);
    expect(res.body.name).toBe(name);
    expect(res.body.inserted_at).toBe(res.body.updated_at);
    expect((await owner.get(`/workspaces/${res.body.id}`)).body).toEqual(res.body);
  });

  it('accepts a client id; 409s on a duplicate id or name', async () => {
    const id = newId();
    expect((await owner.post('/workspaces', { id, name: uniqueName('w') })).status).toBe(201);
    const byId = await owner.post('/workspaces', { id, name: uniqueName('w') });
    expect(byId.status).toBe(409);
    expect(byId.body).toEqual({ detail: `Workspace with id \`${id}\` is not unique` });
    const byName = await owner.post('/workspaces', { name: p.workspace.name });
    expect(byName.status).toBe(409);
    expect(byName.body).toEqual({ detail: `Workspace name \`${p.workspace.name}\` is not unique` });
  });

  it('422s on a missing or empty name', async () => {
    const missing = await owner.post('/workspaces', {});
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual(validationError({ type: 'missing', loc: ['body', 'name'], msg: 'Field required' }));
    const empty = await owner.post('/workspaces', { name: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.detail.params.errors[0]).toMatchObject({ type: 'string_too_short', loc: ['body', 'name'] });
  });

  it('is owner-only', async () => {
    for (const user of [p.adminMember, p.adminOutsider, p.annotatorMember, p.annotatorOutsider]) {
      const res = await user.api.post('/workspaces', { name: uniqueName('nope') });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    expect((await p.anonymous.post('/workspaces', { name: uniqueName('nope') })).status).toBe(401);
  });
});

describe('DELETE /workspaces/{workspace_id}', () => {
  it('deletes an empty workspace and returns it; its memberships go with it', async () => {
    const ws = await createWorkspace(api);
    const user = await createUser(api);
    await addMember(api, ws.id, user.id);
    const res = await owner.delete(`/workspaces/${ws.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ws.id, name: ws.name });
    expect((await owner.get(`/workspaces/${ws.id}`)).status).toBe(404);
    expect((await user.api.get('/me/workspaces')).body.items).toEqual([]);
  });

  it('409s while the workspace has datasets', async () => {
    const ws = await createWorkspace(api);
    await insertDataset(ws.id);
    const res = await owner.delete(`/workspaces/${ws.id}`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: `Cannot delete the workspace ${ws.id}. This workspace has some datasets linked` });
    expect((await owner.get(`/workspaces/${ws.id}`)).status).toBe(200);
  });

  it('404s on an unknown id', async () => {
    const res = await owner.delete(`/workspaces/${MISSING_ID}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFound(MISSING_ID));
  });

  it('is owner-only, checked before loading', async () => {
    for (const user of [p.adminMember, p.adminOutsider, p.annotatorMember, p.annotatorOutsider]) {
      const res = await user.api.delete(`/workspaces/${p.workspace.id}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    expect((await p.adminMember.api.delete(`/workspaces/${MISSING_ID}`)).status).toBe(403);
    expect((await p.anonymous.delete(`/workspaces/${p.workspace.id}`)).status).toBe(401);
  });
});

describe('GET /workspaces/{workspace_id}/users', () => {
  it('lists members, oldest account first, without their api keys (an admin never reads the owner\'s or another member\'s key)', async () => {
    for (const client of [owner, p.adminMember.api]) {
      const res = await client.get(`/workspaces/${p.workspace.id}/users`);
      expect(res.status).toBe(200);
      const ids = res.body.items.map((u: { id: string }) => u.id);
      expect(new Set(ids)).toEqual(new Set([p.adminMember.id, p.annotatorMember.id]));
      const inserted = res.body.items.map((u: { inserted_at: string }) => u.inserted_at);
      expect([...inserted].sort()).toEqual(inserted);
      const annotator = res.body.items.find((u: { id: string }) => u.id === p.annotatorMember.id);
      expect(annotator.username).toBe(p.annotatorMember.username);
      for (const item of res.body.items) expect(item).not.toHaveProperty('api_key');
    }
  });

  it('403s for annotators and non-member admins, 401 anonymous', async () => {
    for (const user of [p.annotatorMember, p.adminOutsider, p.annotatorOutsider]) {
      const res = await user.api.get(`/workspaces/${p.workspace.id}/users`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    expect((await p.anonymous.get(`/workspaces/${p.workspace.id}/users`)).status).toBe(401);
  });

  it('404s for the owner on an unknown workspace; 403 for admins (authorize first)', async () => {
    const res = await owner.get(`/workspaces/${MISSING_ID}/users`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFound(MISSING_ID));
    expect((await p.adminMember.api.get(`/workspaces/${MISSING_ID}/users`)).status).toBe(403);
  });
});

describe('POST /workspaces/{workspace_id}/users', () => {
  it('adds a member (201 User)', async () => {
    const ws = await createWorkspace(api);
    const user = await createUser(api);
    const res = await owner.post(`/workspaces/${ws.id}/users`, { user_id: user.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: user.id, username: user.username });
    expect(res.body).not.toHaveProperty('api_key');
    expect((await user.api.get('/me/workspaces')).body.items.map((w: { id: string }) => w.id)).toEqual([ws.id]);
  });

  it('409s when already a member', async () => {
    const res = await owner.post(`/workspaces/${p.workspace.id}/users`, { user_id: p.annotatorMember.id });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      detail: `Workspace user with workspace_id \`${p.workspace.id}\` and user_id \`${p.annotatorMember.id}\` is not unique`,
    });
  });

  it('422s for an unknown user, 404s for an unknown workspace, validation shape for a bad body', async () => {
    const unknownUser = await owner.post(`/workspaces/${p.workspace.id}/users`, { user_id: MISSING_ID });
    expect(unknownUser.status).toBe(422);
    expect(unknownUser.body).toEqual({ detail: `User with id \`${MISSING_ID}\` not found` });

    const unknownWs = await owner.post(`/workspaces/${MISSING_ID}/users`, { user_id: p.annotatorOutsider.id });
    expect(unknownWs.status).toBe(404);
    expect(unknownWs.body).toEqual(notFound(MISSING_ID));

    const bad = await owner.post(`/workspaces/${p.workspace.id}/users`, {});
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(validationError({ type: 'missing', loc: ['body', 'user_id'], msg: 'Field required' }));
  });

  it('is owner-only, admin members included', async () => {
    for (const user of [p.adminMember, p.adminOutsider, p.annotatorMember, p.annotatorOutsider]) {
      const res = await user.api.post(`/workspaces/${p.workspace.id}/users`, { user_id: p.annotatorOutsider.id });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    expect((await p.anonymous.post(`/workspaces/${p.workspace.id}/users`, { user_id: p.annotatorOutsider.id })).status).toBe(401);
  });
});

describe('DELETE /workspaces/{workspace_id}/users/{user_id}', () => {
  it('lets the owner and admin members remove a member (200 User)', async () => {
    for (const client of [owner, p.adminMember.api]) {
      const user = await createUser(api);
      await addMember(api, p.workspace.id, user.id);
      const res = await client.delete(`/workspaces/${p.workspace.id}/users/${user.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: user.id, username: user.username });
      expect((await user.api.get('/me/workspaces')).body.items).toEqual([]);
    }
  });

  it('404s when the membership does not exist (checked before authorizing)', async () => {
    const detail = `WorkspaceUser not found filtering by workspace_id=${p.workspace.id}, user_id=${p.annotatorOutsider.id}`;
    for (const client of [owner, p.annotatorMember.api]) {
      const res = await client.delete(`/workspaces/${p.workspace.id}/users/${p.annotatorOutsider.id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail });
    }
  });

  it('403s for annotators and non-member admins, 401 anonymous', async () => {
    for (const user of [p.annotatorMember, p.adminOutsider, p.annotatorOutsider]) {
      const res = await user.api.delete(`/workspaces/${p.workspace.id}/users/${p.annotatorMember.id}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    expect((await p.anonymous.delete(`/workspaces/${p.workspace.id}/users/${p.annotatorMember.id}`)).status).toBe(401);
  });
});
