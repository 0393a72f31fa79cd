import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { TestApi } from '../../test/api-client.js';
import { readConfig } from '../config.js';
import { startFakeHub, type FakeHub } from '../../test/fake-hub/fake-hub.js';

let hub: FakeHub;
let server: TestServer;
let api: TestApi;

beforeAll(async () => {
  hub = await startFakeHub();
  server = await startTestServer({
    env: {
      SCHOLIA_OPENID_URL: hub.url,
      OAUTH2_HUGGINGFACE_CLIENT_ID: hub.oauth.clientId,
      SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_SECRET: hub.oauth.clientSecret,
      SCHOLIA_OAUTH2_OWNER_USERNAME: 'hf-boss',
      SCHOLIA_OAUTH2_HUGGINGFACE_WORKSPACES: 'hf-team',
    },
  });
  api = new TestApi(server.url);
});
afterAll(async () => {
  await server?.close();
  await hub?.close();
});

/** Browser steps: our /authentication → provider authorize (auto-consent) → callback query. */
async function authorize(): Promise<{ code: string; state: string; location: URL }> {
  const start = await fetch(`${server.url}/api/v1/oauth2/providers/huggingface/authentication`, { redirect: 'manual' });
  expect(start.status).toBe(307);
  const location = new URL(start.headers.get('location')!);
  const consent = await fetch(location, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const callback = new URL(consent.headers.get('location')!);
  return { code: callback.searchParams.get('code')!, state: callback.searchParams.get('state')!, location };
}

describe('Sign in with Hugging Face', () => {
  it('lists the provider when configured', async () => {
    expect((await api.get('/oauth2/providers')).body).toEqual({ items: [{ name: 'huggingface' }] });
  });

  it('redirects to the authorize endpoint with a stored random state', async () => {
    const { location, state } = await authorize();
    expect(`${location.origin}${location.pathname}`).toBe(`${hub.url}/oauth/authorize`);
    expect(location.searchParams.get('client_id')).toBe(hub.oauth.clientId);
    expect(location.searchParams.get('response_type')).toBe('code');
    expect(location.searchParams.get('scope')).toBe('openid profile');
    expect(location.searchParams.get('redirect_uri')).toBe(`${server.url}/oauth/huggingface/callback`);
    expect(state.length).toBeGreaterThanOrEqual(32);
    const stored = await server.app.database.db.selectFrom('oauth_states').selectAll().where('state', '=', state).executeTakeFirst();
    expect(stored?.provider).toBe('huggingface');
  });

  it('exchanges the code, creates an annotator on first sign-in and refuses a replayed state', async () => {
    hub.oauth.user = { preferred_username: 'hf-alice', name: 'Alice HF', sub: '1' };
    const { code, state } = await authorize();
    const res = await api.get(`/oauth2/providers/huggingface/access-token?code=${code}&state=${encodeURIComponent(state)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
    const me = await api.as({ token: res.body.access_token }).get('/me');
    expect(me.body).toMatchObject({ username: 'hf-alice', first_name: 'Alice HF', role: 'annotator' });
    const db = server.app.database.db;
    const membership = await db
      .selectFrom('workspace_users')
      .innerJoin('workspaces', 'workspaces.id', 'workspace_users.workspace_id')
      .select('workspaces.name')
      .where('workspace_users.user_id', '=', me.body.id)
      .execute();
    expect(membership).toEqual([{ name: 'hf-team' }]);
    expect(await db.selectFrom('oauth_states').selectAll().where('state', '=', state).executeTakeFirst()).toBeUndefined();

    const replay = await api.get(`/oauth2/providers/huggingface/access-token?code=${code}&state=${encodeURIComponent(state)}`);
    expect(replay.status).toBe(400);

    // Second sign-in: same user, no duplicate.
    const again = await authorize();
    const second = await api.get(`/oauth2/providers/huggingface/access-token?code=${again.code}&state=${encodeURIComponent(again.state)}`);
    expect(second.status).toBe(200);
    expect((await db.selectFrom('users').select('id').where('username', '=', 'hf-alice').execute()).length).toBe(1);
  });

  it('makes the configured username owner', async () => {
    hub.oauth.user = { preferred_username: 'hf-boss', name: 'Boss', sub: '2' };
    const { code, state } = await authorize();
    const res = await api.get(`/oauth2/providers/huggingface/access-token?code=${code}&state=${encodeURIComponent(state)}`);
    expect((await api.as({ token: res.body.access_token }).get('/me')).body.role).toBe('owner');
  });

  it('refuses a forged state, a missing code and a code the provider rejects', async () => {
    const { code } = await authorize();
    expect((await api.get(`/oauth2/providers/huggingface/access-token?code=${code}&state=forged`)).status).toBe(400);
    const { state } = await authorize();
    expect((await api.get(`/oauth2/providers/huggingface/access-token?state=${encodeURIComponent(state)}`)).status).toBe(400);
    const fresh = await authorize();
    const bad = await api.get(`/oauth2/providers/huggingface/access-token?code=wrong&state=${encodeURIComponent(fresh.state)}`);
    expect(bad.status).toBe(401);
  });

  it('refuses a state older than its lifetime', async () => {
    const { code, state } = await authorize();
    await server.app.database.db.updateTable('oauth_states').set({ inserted_at: '2000-01-01T00:00:00.000000' }).where('state', '=', state).execute();
    const res = await api.get(`/oauth2/providers/huggingface/access-token?code=${code}&state=${encodeURIComponent(state)}`);
    expect(res.status).toBe(400);
  });

  it('404s unknown providers', async () => {
    const res = await api.get('/oauth2/providers/github/authentication');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: "OAuth Provider 'github' not found" });
  });
});

describe('Hugging Face sign-in settings', () => {
  it('on a Space, USERNAME is the owner and new users join `admin` unless workspaces are named', () => {
    const space = readConfig({ SPACE_ID: 'alice/annotate', USERNAME: 'alice' }).huggingfaceOAuth;
    expect(space).toMatchObject({ ownerUsername: 'alice', workspaces: ['admin'] });
    expect(readConfig({ SPACE_ID: 'alice/annotate', SCHOLIA_OAUTH2_HUGGINGFACE_WORKSPACES: 'a, b' }).huggingfaceOAuth.workspaces).toEqual(['a', 'b']);
  });

  it('off a Space, the shell login name in USERNAME is not an owner and no workspace is joined', () => {
    expect(readConfig({ USERNAME: 'root' }).huggingfaceOAuth).toMatchObject({ ownerUsername: undefined, workspaces: [] });
  });
});
