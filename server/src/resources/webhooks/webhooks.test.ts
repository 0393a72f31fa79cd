import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTestServer, type TestServer } from '../../../test/test-server.js';
import { TestApi } from '../../../test/api-client.js';
import { FORBIDDEN, UNAUTHORIZED, createPrincipals, validationError, type Principals } from '../../../test/fixtures.js';
import { insertDeliveries, listDeliveries } from '../../storage/repositories/webhook-deliveries.repository.js';

let server: TestServer;
let owner: TestApi;
let p: Principals;
const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const WEBHOOK_KEYS = ['description', 'enabled', 'events', 'id', 'inserted_at', 'secret', 'updated_at', 'url'];

beforeAll(async () => {
  server = await startTestServer();
  const api = new TestApi(server.url);
  owner = api.as({ apiKey: OWNER.apiKey });
  p = await createPrincipals(api);
});
afterAll(() => server.close());

const notFound = (id: string) => ({ detail: `Webhook with id \`${id}\` not found` });
const nonOwners = () => [p.adminMember, p.adminOutsider, p.annotatorMember, p.annotatorOutsider];

async function createWebhook(body: Record<string, unknown> = {}) {
  const res = await owner.post('/webhooks', { url: 'https://example.com/hook', events: ['response.created'], ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; secret: string; updated_at: string };
}

async function deleteAllWebhooks() {
  for (const webhook of (await owner.get('/webhooks')).body.items) await owner.delete(`/webhooks/${webhook.id}`);
}

describe('POST /webhooks', () => {
  it('creates an enabled webhook with a generated 64-byte secret, ignoring a client secret', async () => {
    const res = await owner.post('/webhooks', {
      url: 'http://localhost:3000/hook?x=1',
      events: ['dataset.created', 'record.completed'],
      description: 'my hook',
      secret: 'client-chosen',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(WEBHOOK_KEYS);
    expect(res.body).toMatchObject({
      url: 'http://localhost:3000/hook?x=1',
      events: ['dataset.created', 'record.completed'],
      enabled: true,
      description: 'my hook',
    });
    expect(Buffer.from(res.body.secret, 'base64')).toHaveLength(64);
    expect(res.body.secret).not.toBe('client-chosen');
  });

  it('422s (validation shape) on a bad url, no events, an unknown event', async () => {
    const badUrl = await owner.post('/webhooks', { url: 'ftp://example.com', events: ['response.created'] });
    expect(badUrl.status).toBe(422);
    expect(badUrl.body.detail.params.errors[0].loc).toEqual(['body', 'url']);

    const empty = await owner.post('/webhooks', { url: 'https://example.com', events: [] });
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual(
      validationError({ type: 'too_short', loc: ['body', 'events'], msg: 'List should have at least 1 items' }),
    );

    const unknown = await owner.post('/webhooks', { url: 'https://example.com', events: ['dataset.exploded'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail.params.errors[0]).toMatchObject({ type: 'literal_error', loc: ['body', 'events', 0] });

    const missing = await owner.post('/webhooks', { events: ['response.created'] });
    expect(missing.body).toEqual(validationError({ type: 'missing', loc: ['body', 'url'], msg: 'Field required' }));
  });

  it('refuses an 11th webhook', async () => {
    await deleteAllWebhooks();
    for (let i = 0; i < 10; i += 1) await createWebhook();
    const res = await owner.post('/webhooks', { url: 'https://example.com', events: ['response.created'] });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: "You can't create more than 10 webhooks. Please delete some of them first" });
    await deleteAllWebhooks();
  });

  it('is owner-only', async () => {
    for (const user of nonOwners()) {
      const res = await user.api.post('/webhooks', { url: 'https://example.com', events: ['response.created'] });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    expect((await p.anonymous.post('/webhooks', {})).status).toBe(401);
  });
});

describe('GET /webhooks', () => {
  it('lists webhooks oldest first', async () => {
    await deleteAllWebhooks();
    const first = await createWebhook();
    const second = await createWebhook({ description: 'second' });
    const res = await owner.get('/webhooks');
    expect(res.status).toBe(200);
    expect(res.body.items.map((w: { id: string }) => w.id)).toEqual([first.id, second.id]);
    expect(Object.keys(res.body.items[0]).sort()).toEqual(WEBHOOK_KEYS);
  });

  it('is owner-only', async () => {
    for (const user of nonOwners()) {
      const res = await user.api.get('/webhooks');
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    const res = await p.anonymous.get('/webhooks');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });
});

describe('PATCH /webhooks/{webhook_id}', () => {
  it('updates the keys sent; description null clears it', async () => {
    const webhook = await createWebhook({ description: 'before' });
    const res = await owner.patch(`/webhooks/${webhook.id}`, { url: 'https://example.org/new', events: ['record.deleted'], enabled: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url: 'https://example.org/new', events: ['record.deleted'], enabled: false, description: 'before', secret: webhook.secret });
    expect(res.body.updated_at > webhook.updated_at).toBe(true);
    const cleared = await owner.patch(`/webhooks/${webhook.id}`, { description: null });
    expect(cleared.body.description).toBeNull();
    expect((await owner.get('/webhooks')).body.items.find((w: { id: string }) => w.id === webhook.id)).toEqual(cleared.body);
  });

  it('rejects null for url, events and enabled', async () => {
    const webhook = await createWebhook();
    for (const key of ['url', 'events', 'enabled']) {
      const res = await owner.patch(`/webhooks/${webhook.id}`, { [key]: null });
      expect(res.status, key).toBe(422);
      expect(res.body.detail.params.errors[0].loc).toEqual(['body', key]);
    }
  });

  it('404s on an unknown id (loaded first), 403 for non-owners, 422 for a malformed id', async () => {
    const missing = await p.annotatorMember.api.patch(`/webhooks/${MISSING_ID}`, { enabled: false });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFound(MISSING_ID));
    const webhook = await createWebhook();
    for (const user of nonOwners()) {
      const res = await user.api.patch(`/webhooks/${webhook.id}`, { enabled: false });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    expect((await owner.patch('/webhooks/nope', { enabled: false })).body.detail.params.errors[0].type).toBe('uuid_parsing');
  });
});

describe('DELETE /webhooks/{webhook_id}', () => {
  it('deletes and returns the webhook', async () => {
    const webhook = await createWebhook();
    const res = await owner.delete(`/webhooks/${webhook.id}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(webhook.id);
    expect((await owner.delete(`/webhooks/${webhook.id}`)).body).toEqual(notFound(webhook.id));
  });

  it("deletes the webhook's deliveries with it, and only those", async () => {
    const { db } = server.app.database;
    const [deleted, kept] = [await createWebhook(), await createWebhook()];
    const delivery = (id: string, webhookId: string, status: 'pending' | 'delivered') => {
      const at = '2026-11-26T00:00:00.000000';
      // Due far ahead: the server's deliverer leaves them alone.
      return { id, webhook_id: webhookId, event: 'response.created', body: '{}', status, attempts: 0, next_attempt_at: '2999-01-01T00:00:00.000000', claimed_by: null, last_status_code: null, last_error: null, inserted_at: at, updated_at: at };
    };
    await insertDeliveries(db, [delivery('msg_a', deleted.id, 'pending'), delivery('msg_b', deleted.id, 'delivered'), delivery('msg_c', kept.id, 'pending')]);
    expect((await owner.delete(`/webhooks/${deleted.id}`)).status).toBe(200);
    expect(await listDeliveries(db, deleted.id, 10)).toEqual([]);
    expect((await listDeliveries(db, kept.id, 10)).map((d) => d.id)).toEqual(['msg_c']);
    await owner.delete(`/webhooks/${kept.id}`);
  });

  it('404 first, then 403 for non-owners, 401 anonymous', async () => {
    expect((await p.adminMember.api.delete(`/webhooks/${MISSING_ID}`)).status).toBe(404);
    const webhook = await createWebhook();
    for (const user of nonOwners()) {
      const res = await user.api.delete(`/webhooks/${webhook.id}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    expect((await p.anonymous.delete(`/webhooks/${webhook.id}`)).status).toBe(401);
  });
});

describe('POST /webhooks/{webhook_id}/ping', () => {
  it('answers 204 with no body', async () => {
    const webhook = await createWebhook();
    const res = await owner.post(`/webhooks/${webhook.id}/ping`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
  });

  it('404 on an unknown webhook, 403 for non-owners', async () => {
    const missing = await owner.post(`/webhooks/${MISSING_ID}/ping`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFound(MISSING_ID));
    const webhook = await createWebhook();
    for (const user of nonOwners()) {
      const res = await user.api.post(`/webhooks/${webhook.id}/ping`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
  });
});
