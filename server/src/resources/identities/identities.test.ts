import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTestServer, type TestServer } from '../../../test/test-server.js';
import { TestApi } from '../../../test/api-client.js';
import { FORBIDDEN, UNAUTHORIZED, createPrincipals, createUser, type Principals } from '../../../test/fixtures.js';

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

/** Non-owners get 403 and anonymous callers 401, as for `/users`. */
async function expectOwnerOnly(call: (client: TestApi) => Promise<{ status: number; body: unknown }>) {
  for (const user of [p.adminMember, p.adminOutsider, p.annotatorMember, p.annotatorOutsider]) {
    const res = await call(user.api);
    expect(res.status, user.username).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  }
  const anonymous = await call(api);
  expect(anonymous.status).toBe(401);
  expect(anonymous.body).toEqual(UNAUTHORIZED);
}

describe('sign-in identities of accounts', () => {
  it('an owner links an account to a Hugging Face subject, lists it, and unlinks it', async () => {
    const user = await createUser(api);
    const linked = await owner.put(`/users/${user.id}/identities/huggingface`, { subject: '12345' });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body).toEqual({ user_id: user.id, provider: 'huggingface', subject: '12345' });
    expect((await owner.get('/identities')).body.items).toContainEqual({ user_id: user.id, provider: 'huggingface', subject: '12345' });

    // Linking again replaces the user's subject.
    expect((await owner.put(`/users/${user.id}/identities/huggingface`, { subject: '999' })).body.subject).toBe('999');

    const unlinked = await owner.delete(`/users/${user.id}/identities/huggingface`);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body).toEqual({ user_id: user.id, provider: 'huggingface', subject: '999' });
    expect((await owner.get('/identities')).body.items.map((item: { user_id: string }) => item.user_id)).not.toContain(user.id);
    const again = await owner.delete(`/users/${user.id}/identities/huggingface`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: `User with id \`${user.id}\` is not linked to huggingface` });
  });

  it('a subject opens one account: linking it to a second one is a 409 naming the first', async () => {
    const [first, second] = [await createUser(api), await createUser(api)];
    expect((await owner.put(`/users/${first.id}/identities/huggingface`, { subject: 'shared-sub' })).status).toBe(200);
    const clash = await owner.put(`/users/${second.id}/identities/huggingface`, { subject: 'shared-sub' });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({ detail: `The huggingface subject 'shared-sub' is already linked to user '${first.username}'` });
  });

  it('refuses an unknown provider, an empty subject and an unknown user', async () => {
    const user = await createUser(api);
    const provider = await owner.put(`/users/${user.id}/identities/github`, { subject: '1' });
    expect(provider.status).toBe(422);
    expect(provider.body).toEqual({ detail: "Unknown sign-in provider 'github'" });
    expect((await owner.put(`/users/${user.id}/identities/huggingface`, { subject: '' })).status).toBe(422);
    expect((await owner.put(`/users/${user.id}/identities/huggingface`, { subject: '   ' })).status).toBe(422);
    expect((await owner.put(`/users/${user.id}/identities/huggingface`, {})).status).toBe(422);
    const missing = await owner.put(`/users/${MISSING_ID}/identities/huggingface`, { subject: '1' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: `User with id \`${MISSING_ID}\` not found` });
  });

  it('is for owners only', async () => {
    const user = await createUser(api);
    await expectOwnerOnly((client) => client.get('/identities'));
    await expectOwnerOnly((client) => client.put(`/users/${user.id}/identities/huggingface`, { subject: 'x' }));
    await expectOwnerOnly((client) => client.delete(`/users/${user.id}/identities/huggingface`));
    expect((await owner.get('/identities')).body.items.map((item: { user_id: string }) => item.user_id)).not.toContain(user.id);
  });
});
