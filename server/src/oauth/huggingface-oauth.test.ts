import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { TestApi, type ApiResult } from '../../test/api-client.js';
import { createUser } from '../../test/fixtures.js';
import { OWNER } from '../../test/test-server.js';
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

interface Authorization {
  code: string;
  state: string;
  location: URL;
  /** The `Set-Cookie` header of our redirect. */
  setCookie: string;
  /** `Cookie` header the browser sends back. */
  cookie: string;
}

/** Browser steps: our /authentication → provider authorize (auto-consent) → callback query. */
async function authorize(target: TestServer = server): Promise<Authorization> {
  const start = await fetch(`${target.url}/api/v1/oauth2/providers/huggingface/authentication`, { redirect: 'manual' });
  expect(start.status).toBe(307);
  const location = new URL(start.headers.get('location')!);
  const consent = await fetch(location, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const callback = new URL(consent.headers.get('location')!);
  const setCookie = start.headers.get('set-cookie') ?? '';
  return { code: callback.searchParams.get('code')!, state: callback.searchParams.get('state')!, location, setCookie, cookie: setCookie.split(';')[0] };
}

/** The sign-in page's call with the callback's query, from the browser holding `cookie`. */
function exchange(query: string, cookie?: string, target: TestServer = server): Promise<ApiResult> {
  return new TestApi(target.url).request('GET', `/oauth2/providers/huggingface/access-token?${query}`, undefined, cookie ? { Cookie: cookie } : {});
}

const callbackQuery = ({ code, state }: { code: string; state: string }) => `code=${code}&state=${encodeURIComponent(state)}`;

/** A full sign-in as the fake hub's current user; returns the reply and `/me` of the token. */
async function signInWithHub(target: TestServer = server): Promise<{ reply: ApiResult; me: any }> {
  const flow = await authorize(target);
  const reply = await exchange(callbackQuery(flow), flow.cookie, target);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const me = (await new TestApi(target.url).as({ token: reply.body.access_token }).get('/me')).body;
  return { reply, me };
}

describe('Sign in with Hugging Face', () => {
  it('lists the provider when configured', async () => {
    expect((await api.get('/oauth2/providers')).body).toEqual({ items: [{ name: 'huggingface' }] });
  });

  it('redirects to the authorize endpoint with a stored random state, kept by the browser in an HttpOnly SameSite=Lax cookie', async () => {
    const { location, state, setCookie } = await authorize();
    expect(`${location.origin}${location.pathname}`).toBe(`${hub.url}/oauth/authorize`);
    expect(location.searchParams.get('client_id')).toBe(hub.oauth.clientId);
    expect(location.searchParams.get('response_type')).toBe('code');
    expect(location.searchParams.get('scope')).toBe('openid profile');
    expect(state.length).toBeGreaterThanOrEqual(32);
    const stored = await server.app.database.db.selectFrom('oauth_states').selectAll().where('state', '=', state).executeTakeFirst();
    expect(stored?.provider).toBe('huggingface');
    const attributes = setCookie.split(';').map((part) => part.trim());
    expect(attributes[0]).toBe(`scholia_oauth_state=${state}`);
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/api/v1/oauth2/providers/huggingface/', 'Max-Age=600']));
    expect(attributes).not.toContain('Secure'); // plain HTTP here; over HTTPS it is Secure
  });

  it('exchanges the code, creates an annotator on first sign-in and refuses a replayed state', async () => {
    hub.oauth.user = { preferred_username: 'hf-alice', name: 'Alice HF', sub: '1' };
    const flow = await authorize();
    const res = await exchange(callbackQuery(flow), flow.cookie);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
    // The state is spent: the reply removes the cookie.
    expect(res.headers.get('set-cookie')).toMatch(/^scholia_oauth_state=; Path=\/api\/v1\/oauth2\/providers\/huggingface\/; Max-Age=0/);
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
    expect(await db.selectFrom('oauth_states').selectAll().where('state', '=', flow.state).executeTakeFirst()).toBeUndefined();
    const linked = await db.selectFrom('users').select(['identity_provider', 'identity_subject']).where('id', '=', me.body.id).executeTakeFirst();
    expect(linked).toEqual({ identity_provider: 'huggingface', identity_subject: '1' });

    const replay = await exchange(callbackQuery(flow), flow.cookie);
    expect(replay.status).toBe(400);

    // Second sign-in: same user, no duplicate.
    const second = await signInWithHub();
    expect(second.me.id).toBe(me.body.id);
    expect((await db.selectFrom('users').select('id').where('username', '=', 'hf-alice').execute()).length).toBe(1);
  });

  it('finds the account by the Hugging Face subject, so a renamed Hugging Face user keeps it', async () => {
    hub.oauth.user = { preferred_username: 'hf-dora', name: 'Dora', sub: '40' };
    const first = await signInWithHub();
    hub.oauth.user = { preferred_username: 'hf-dora-renamed', name: 'Dora', sub: '40' };
    const again = await signInWithHub();
    expect(again.me).toMatchObject({ id: first.me.id, username: 'hf-dora' });
  });

  it('never hands a local account to a Hugging Face user of the same name: a free name is picked and told', async () => {
    const local = await createUser(api, { role: 'admin', username: 'victim' });
    hub.oauth.user = { preferred_username: 'victim', name: 'Mallory', sub: '666' };
    const taken = await signInWithHub();
    expect(taken.me.id).not.toBe(local.id);
    expect(taken.me).toMatchObject({ username: 'victim-hf', role: 'annotator' });
    expect(taken.reply.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', assigned_username: 'victim-hf' });
    // Another subject wanting the name gets the next free one; the first one keeps its account.
    hub.oauth.user = { preferred_username: 'victim', name: 'Trudy', sub: '667' };
    expect((await signInWithHub()).me).toMatchObject({ username: 'victim-hf-2', role: 'annotator' });
    hub.oauth.user = { preferred_username: 'victim', name: 'Mallory', sub: '666' };
    const back = await signInWithHub();
    expect(back.me.id).toBe(taken.me.id);
    expect(back.reply.body.assigned_username).toBeUndefined();
    // The local account is untouched and unlinked.
    const row = await server.app.database.db.selectFrom('users').selectAll().where('id', '=', local.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ username: 'victim', role: 'admin', identity_provider: null, identity_subject: null });
  });

  it('a Hugging Face user named like the install owner gets an annotator account of its own', async () => {
    hub.oauth.user = { preferred_username: OWNER.username, name: 'Not the owner', sub: '700' };
    const { me } = await signInWithHub();
    expect(me).toMatchObject({ username: `${OWNER.username}-hf`, role: 'annotator' });
  });

  it('makes the configured username owner on its first sign-in; another subject of that name is not', async () => {
    hub.oauth.user = { preferred_username: 'hf-boss', name: 'Boss', sub: '2' };
    const boss = await signInWithHub();
    expect(boss.me).toMatchObject({ username: 'hf-boss', role: 'owner' });
    hub.oauth.user = { preferred_username: 'hf-boss', name: 'Impostor', sub: '3' };
    expect((await signInWithHub()).me).toMatchObject({ username: 'hf-boss-hf', role: 'annotator' });
  });

  it('an account an owner links to a subject is the one that subject signs in to, until unlinked', async () => {
    const carol = await createUser(api, { role: 'admin', username: 'carol-local' });
    const owner = api.as({ apiKey: OWNER.apiKey });
    const link = await owner.put(`/users/${carol.id}/identities/huggingface`, { subject: '900' });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    expect(link.body).toEqual({ user_id: carol.id, provider: 'huggingface', subject: '900' });
    hub.oauth.user = { preferred_username: 'carol-on-hf', name: 'Carol', sub: '900' };
    expect((await signInWithHub()).me).toMatchObject({ id: carol.id, username: 'carol-local', role: 'admin' });

    const unlink = await owner.delete(`/users/${carol.id}/identities/huggingface`);
    expect(unlink.status).toBe(200);
    const after = await signInWithHub();
    expect(after.me).toMatchObject({ username: 'carol-on-hf', role: 'annotator' });
    expect(after.me.id).not.toBe(carol.id);
  });

  it('refuses a forged state, a missing code and a code the provider rejects', async () => {
    const { code, cookie } = await authorize();
    expect((await exchange(`code=${code}&state=forged`, 'scholia_oauth_state=forged')).status).toBe(400);
    expect((await exchange(`code=${code}&state=forged`, cookie)).status).toBe(400);
    const { state, cookie: second } = await authorize();
    expect((await exchange(`state=${encodeURIComponent(state)}`, second)).status).toBe(400);
    const fresh = await authorize();
    const bad = await exchange(`code=wrong&state=${encodeURIComponent(fresh.state)}`, fresh.cookie);
    expect(bad.status).toBe(401);
  });

  it('refuses a callback in a browser that did not start the sign-in (login CSRF), whoever made the link', async () => {
    hub.oauth.user = { preferred_username: 'hf-attacker', name: 'Attacker', sub: '13' };
    const attackers = await authorize(); // the attacker stops at the callback and sends its link to a victim
    const victims = await authorize(); // a flow of the victim's own, so the victim holds a state cookie
    for (const cookie of [undefined, victims.cookie]) {
      const res = await exchange(callbackQuery(attackers), cookie);
      expect(res.status).toBe(400);
      expect(res.body.detail.params.message).toBe('The OAuth state does not belong to this browser: start the sign-in again');
    }
    const users = await server.app.database.db.selectFrom('users').select('id').where('username', '=', 'hf-attacker').execute();
    expect(users).toEqual([]);
  });

  it('answers 400 with a detail, never 500, for a repeated or oversized query parameter', async () => {
    const flow = await authorize();
    const queries = [
      `code=${flow.code}&state=${encodeURIComponent(flow.state)}&state=${encodeURIComponent(flow.state)}`,
      `code=${flow.code}&code=${flow.code}&state=${encodeURIComponent(flow.state)}`,
      `code=${'c'.repeat(5000)}&state=${encodeURIComponent(flow.state)}`,
    ];
    for (const query of queries) {
      const res = await exchange(query, flow.cookie);
      expect(res.status, query.slice(0, 40)).toBe(400);
      expect(res.body.detail).toEqual({ code: 'argilla.api.errors::BadRequestError', params: { message: expect.stringMatching(/^Query parameter '(state|code)' /) } });
    }
    const start = await api.get('/oauth2/providers/huggingface/authentication?next=a&next=b');
    expect(start.status).toBe(400);
    expect(start.body.detail.params.message).toBe("Query parameter 'next' must be given once");
  });

  it('refuses a state older than its lifetime', async () => {
    const flow = await authorize();
    await server.app.database.db.updateTable('oauth_states').set({ inserted_at: '2000-01-01T00:00:00.000000' }).where('state', '=', flow.state).execute();
    const res = await exchange(callbackQuery(flow), flow.cookie);
    expect(res.status).toBe(400);
  });

  it('404s unknown providers', async () => {
    const res = await api.get('/oauth2/providers/github/authentication');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: "OAuth Provider 'github' not found" });
  });
});

describe('the OAuth callback URL', () => {
  const providerEnv = () => ({
    SCHOLIA_OPENID_URL: hub.url,
    OAUTH2_HUGGINGFACE_CLIENT_ID: hub.oauth.clientId,
    SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_SECRET: hub.oauth.clientSecret,
  });
  const redirectUriOf = async (target: TestServer, headers: Record<string, string>) => {
    const res = await target.app.inject({ method: 'GET', url: '/api/v1/oauth2/providers/huggingface/authentication', headers });
    expect(res.statusCode).toBe(307);
    return new URL(res.headers.location as string).searchParams.get('redirect_uri');
  };

  it('never comes from the Host header of a direct request', async () => {
    expect(await redirectUriOf(server, { host: 'attacker.example' })).toBe('http://localhost:6900/oauth/huggingface/callback');
    expect(await redirectUriOf(server, { host: 'a.example', 'x-forwarded-host': 'attacker.example', 'x-forwarded-for': '10.0.0.1' })).toBe(
      'http://localhost:6900/oauth/huggingface/callback',
    );
  });

  it('comes from a trusted proxy’s forwarded host and protocol; over HTTPS the state cookie is Secure', async () => {
    const proxied = await startTestServer({ env: { ...providerEnv(), SCHOLIA_TRUSTED_PROXIES: '127.0.0.1' } });
    try {
      const headers = { host: 'internal:8080', 'x-forwarded-host': 'scholia.example.org', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };
      expect(await redirectUriOf(proxied, headers)).toBe('https://scholia.example.org/oauth/huggingface/callback');
      const res = await proxied.app.inject({ method: 'GET', url: '/api/v1/oauth2/providers/huggingface/authentication', headers });
      expect(res.headers['set-cookie']).toMatch(/; Secure$/);
      // Without the proxy's headers the request is a direct one.
      expect(await redirectUriOf(proxied, { host: 'attacker.example' })).toBe('http://localhost:6900/oauth/huggingface/callback');
    } finally {
      await proxied.close();
    }
  });

  it('is configured, or on a Space the Space’s own host', async () => {
    const configured = await startTestServer({
      env: { ...providerEnv(), SCHOLIA_OAUTH2_HUGGINGFACE_REDIRECT_URI: 'https://labels.example.org/oauth/huggingface/callback' },
    });
    try {
      expect(await redirectUriOf(configured, { host: 'attacker.example' })).toBe('https://labels.example.org/oauth/huggingface/callback');
    } finally {
      await configured.close();
    }
    expect(readConfig({ SPACE_ID: 'alice/annotate', SPACE_HOST: 'alice-annotate.hf.space' }).huggingfaceOAuth.redirectUri).toBe(
      'https://alice-annotate.hf.space/oauth/huggingface/callback',
    );
  });
});

describe('on a Hugging Face Space', () => {
  it('the Space owner’s first sign-in links the local owner account of that name; no one else gets it', async () => {
    const space = await startTestServer({
      env: {
        SCHOLIA_OPENID_URL: hub.url,
        OAUTH2_HUGGINGFACE_CLIENT_ID: hub.oauth.clientId,
        SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_SECRET: hub.oauth.clientSecret,
        SPACE_ID: `${OWNER.username}/annotate`,
        USERNAME: OWNER.username,
      },
    });
    try {
      const ownerId = (await new TestApi(space.url).as({ apiKey: OWNER.apiKey }).get('/me')).body.id;
      hub.oauth.user = { preferred_username: OWNER.username, name: 'Space owner', sub: '5000' };
      expect((await signInWithHub(space)).me).toMatchObject({ id: ownerId, username: OWNER.username, role: 'owner' });
      const row = await space.app.database.db.selectFrom('users').selectAll().where('id', '=', ownerId).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ identity_provider: 'huggingface', identity_subject: '5000' });
      // Once linked, the name matches nothing: another subject of that name is someone else.
      hub.oauth.user = { preferred_username: OWNER.username, name: 'Later holder of the name', sub: '5001' };
      expect((await signInWithHub(space)).me).toMatchObject({ username: `${OWNER.username}-hf`, role: 'annotator' });
    } finally {
      await space.close();
    }
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
