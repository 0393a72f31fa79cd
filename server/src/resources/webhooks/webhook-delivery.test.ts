import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { createPrincipals, uniqueName, type Principals } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { hasValidSignature, WebhookReceiver } from '../../../test/webhook-receiver.js';
import { claimNextJob } from '../../jobs/job-queue.js';
import { fromJson } from '../../storage/json.js';
import { RECORD_STATUS_EVENTS_JOB, runRecordStatusEventsJob } from '../../webhooks/record-status-events.js';
import { setWebhookRetryDelays } from '../../webhooks/webhook-deliverer.js';
import { classifyAddress } from '../../webhooks/target-address.js';
import { isPublicAddress, postWebhook, WebhookTargetRefused } from '../../webhooks/webhook-target.js';

const ALLOW_PRIVATE = { SCHOLIA_WEBHOOKS_ALLOW_PRIVATE: 'true' };
const ALL_EVENTS = [
  'dataset.created', 'dataset.updated', 'dataset.deleted', 'dataset.published',
  'record.created', 'record.updated', 'record.deleted', 'record.completed',
  'response.created', 'response.updated', 'response.deleted',
];

let server: TestServer;
let api: TestApi;
let principals: Principals;
let receiver: WebhookReceiver;
let receiverUrl: string;

beforeAll(async () => {
  setWebhookRetryDelays([300, 300, 300]);
  receiver = new WebhookReceiver();
  receiverUrl = await receiver.listen();
  server = await startTestServer({ env: ALLOW_PRIVATE });
  api = new TestApi(server.url).as({ apiKey: 'owner.apikey' });
  principals = await createPrincipals(api);
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

async function createWebhook(client: TestApi, url: string, events: string[]) {
  const res = await client.post('/webhooks', { url, events });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
}

async function deliveryLog(client: TestApi, webhookId: string, until: (items: any[]) => boolean, timeoutMs = 10_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get(`/webhooks/${webhookId}/deliveries`);
    expect(res.status).toBe(200);
    if (until(res.body.items)) return res.body.items;
    if (Date.now() > deadline) throw new Error(`delivery log never matched: ${JSON.stringify(res.body.items)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('webhook delivery', () => {
  it('ping sends a signed ping event and logs the delivery', async () => {
    const webhook = await createWebhook(api, receiverUrl, ['dataset.created']);
    expect(Buffer.from(webhook.secret, 'base64')).toHaveLength(64);
    expect((await api.post(`/webhooks/${webhook.id}/ping`)).status).toBe(204);

    const ping = await receiver.waitFor((r) => r.event.type === 'ping');
    expect(hasValidSignature(ping, webhook.secret)).toBe(true);
    expect(ping.headers['webhook-id']).toMatch(/^msg_/);
    expect(ping.headers['content-type']).toBe('application/json');
    expect(ping.event).toEqual({ type: 'ping', version: 1, timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/), data: { agent: 'argilla-server', version: '2.8.0' } });

    const [entry] = await deliveryLog(api, webhook.id, (items) => items[0]?.status === 'delivered');
    expect(entry).toMatchObject({ id: ping.headers['webhook-id'], event: 'ping', status: 'delivered', attempts: 1, last_status_code: 200, last_error: null });
    await api.delete(`/webhooks/${webhook.id}`);
  });

  it('delivers each dataset, record and response event with the reference payload shapes', async () => {
    const webhook = await createWebhook(api, receiverUrl, ALL_EVENTS);
    const ofType = (type: string) => receiver.waitFor((r) => r.event.type === type && hasValidSignature(r, webhook.secret));

    const name = uniqueName('hooked');
    const dataset = (await api.post('/datasets', { name, workspace_id: principals.workspace.id })).body;
    const created = await ofType('dataset.created');
    expect(created.event.data).toMatchObject({ id: dataset.id, name, status: 'draft', workspace: { id: principals.workspace.id, name: principals.workspace.name }, fields: [], questions: [] });
    expect(Object.keys(created.event.data).sort()).toEqual(
      ['allow_extra_metadata', 'distribution', 'fields', 'guidelines', 'id', 'inserted_at', 'last_activity_at', 'metadata_properties', 'name', 'questions', 'status', 'updated_at', 'vectors_settings', 'workspace'].sort(),
    );

    expect((await api.post(`/datasets/${dataset.id}/fields`, { name: 'text', title: 'Text', required: true, settings: { type: 'text' } })).status).toBe(201);
    const question = await api.post(`/datasets/${dataset.id}/questions`, {
      name: 'label', title: 'Label', required: true, settings: { type: 'label_selection', options: [{ value: 'a', text: 'A' }, { value: 'b', text: 'B' }] },
    });
    expect(question.status).toBe(201);
    expect((await api.put(`/datasets/${dataset.id}/publish`)).status).toBe(200);
    const published = await ofType('dataset.published');
    expect(published.event.data).toMatchObject({ id: dataset.id, status: 'ready', fields: [{ name: 'text', settings: { type: 'text' } }], questions: [{ name: 'label', required: true }] });

    expect((await api.patch(`/datasets/${dataset.id}`, { guidelines: 'Be careful' })).status).toBe(200);
    expect((await ofType('dataset.updated')).event.data).toMatchObject({ id: dataset.id, guidelines: 'Be careful' });

    const logged = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ external_id: 'e1', fields: { text: 'first' } }] });
    const recordId = logged.body.items[0].id;
    const recordCreated = await ofType('record.created');
    expect(recordCreated.event.data).toMatchObject({ id: recordId, status: 'pending', fields: { text: 'first' }, external_id: 'e1', dataset: { id: dataset.id, name } });
    expect(Object.keys(recordCreated.event.data).sort()).toEqual(['dataset', 'external_id', 'fields', 'id', 'inserted_at', 'metadata', 'status', 'updated_at']);

    await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ external_id: 'e1', fields: { text: 'second' } }] });
    expect((await receiver.waitFor((r) => r.event.type === 'record.updated' && r.event.data.fields.text === 'second')).event.data.id).toBe(recordId);
    await api.patch(`/records/${recordId}`, { fields: { text: 'third' } });
    await receiver.waitFor((r) => r.event.type === 'record.updated' && r.event.data.fields.text === 'third');

    const response = await api.post(`/records/${recordId}/responses`, { status: 'submitted', values: { label: { value: 'a' } } });
    expect(response.status).toBe(201);
    const responseCreated = await ofType('response.created');
    expect(responseCreated.event.data).toMatchObject({
      id: response.body.id,
      status: 'submitted',
      values: { label: { value: 'a' } },
      record: { id: recordId, status: 'completed', dataset: { id: dataset.id } },
      user: { username: 'owner', role: 'owner' },
    });
    // As the reference: after each response write, the record's `record.updated` and, when completed, `record.completed`.
    await receiver.waitFor((r) => r.event.type === 'record.updated' && r.event.data.status === 'completed');
    const completed = await ofType('record.completed');
    expect(completed.event.data).toMatchObject({ id: recordId, status: 'completed', dataset: { id: dataset.id } });
    await api.put(`/responses/${response.body.id}`, { status: 'draft', values: { label: { value: 'b' } } });
    expect((await ofType('response.updated')).event.data).toMatchObject({ id: response.body.id, status: 'draft', values: { label: { value: 'b' } } });
    expect(receiver.received.filter((r) => r.event.type === 'record.completed')).toHaveLength(1); // pending after the draft
    await api.put(`/responses/${response.body.id}`, { status: 'submitted', values: { label: { value: 'b' } } });
    await receiver.waitFor((r) => r.event.type === 'response.updated' && r.event.data.status === 'submitted');
    await receiver.waitFor((r) => r.event.type === 'record.completed' && r.headers['webhook-id'] !== completed.headers['webhook-id']);
    await api.delete(`/responses/${response.body.id}`);
    expect((await ofType('response.deleted')).event.data).toMatchObject({ id: response.body.id, record: { id: recordId } });

    await api.delete(`/datasets/${dataset.id}/records?ids=${recordId}`);
    expect((await ofType('record.deleted')).event.data).toMatchObject({ id: recordId, fields: { text: 'third' } });
    await api.delete(`/datasets/${dataset.id}`);
    expect((await ofType('dataset.deleted')).event.data).toMatchObject({ id: dataset.id, name });

    const types = receiver.received.filter((r) => hasValidSignature(r, webhook.secret)).map((r) => r.event.type);
    expect(new Set(types)).toEqual(new Set(ALL_EVENTS));
    // One delivery per event: every message id arrived once.
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    await api.delete(`/webhooks/${webhook.id}`);
  });

  it('sends nothing for events a webhook does not subscribe to, nor when it is disabled', async () => {
    const webhook = await createWebhook(api, receiverUrl, ['dataset.deleted']);
    const before = receiver.received.length;
    const dataset = (await api.post('/datasets', { name: uniqueName('quiet'), workspace_id: principals.workspace.id })).body;
    await api.patch(`/webhooks/${webhook.id}`, { enabled: false });
    await api.delete(`/datasets/${dataset.id}`);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received.slice(before).filter((r) => hasValidSignature(r, webhook.secret))).toEqual([]);
    expect((await api.get(`/webhooks/${webhook.id}/deliveries`)).body.items).toEqual([]);
    await api.delete(`/webhooks/${webhook.id}`);
  });

  it('retries after the receiver fails, with the same message id and a fresh signature', async () => {
    const webhook = await createWebhook(api, receiverUrl, ['dataset.created']);
    receiver.failNext(2);
    await api.post(`/webhooks/${webhook.id}/ping`);
    const ping = await receiver.waitFor((r) => r.event.type === 'ping' && hasValidSignature(r, webhook.secret));
    const [entry] = await deliveryLog(api, webhook.id, (items) => items[0]?.status === 'delivered');
    expect(entry).toMatchObject({ id: ping.headers['webhook-id'], status: 'delivered', attempts: 3, last_status_code: 200 });
    await api.delete(`/webhooks/${webhook.id}`);
  });

  it('a target that does not answer does not hold up other webhooks', async () => {
    const hanging = http.createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const slow = await createWebhook(api, `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`, ['dataset.created']);
      const fast = await createWebhook(api, receiverUrl, ['dataset.created']);
      await api.post(`/webhooks/${slow.id}/ping`);
      await api.post(`/webhooks/${fast.id}/ping`);
      await receiver.waitFor((r) => r.event.type === 'ping' && hasValidSignature(r, fast.secret), 5_000);
      expect((await api.get(`/webhooks/${slow.id}/deliveries`)).body.items[0]).toMatchObject({ status: 'sending', attempts: 0 });
      await api.delete(`/webhooks/${slow.id}`);
      await api.delete(`/webhooks/${fast.id}`);
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });

  it('gives up after the last retry and logs the failure', async () => {
    const webhook = await createWebhook(api, receiverUrl, ['dataset.created']);
    receiver.failNext(10);
    await api.post(`/webhooks/${webhook.id}/ping`);
    const [entry] = await deliveryLog(api, webhook.id, (items) => items[0]?.status === 'failed');
    expect(entry).toMatchObject({ status: 'failed', attempts: 4, last_status_code: 500, last_error: 'The target answered 500', next_attempt_at: null });
    receiver.failNext(0);
    await api.delete(`/webhooks/${webhook.id}`);
  });
});

describe('webhooks with slow targets', () => {
  it('take turns: a slow target holds up only its own deliveries, sent one at a time in the order they were queued', async () => {
    // More slow targets than a handful of senders, each with a queue of events, all held unanswered.
    const slowReceivers = Array.from({ length: 5 }, () => new WebhookReceiver());
    const fastReceiver = new WebhookReceiver();
    const names = Array.from({ length: 6 }, (_, i) => uniqueName(`queued-${i}`));
    const slow: Array<{ id: string; secret: string }> = [];
    const datasets: string[] = [];
    try {
      for (const receiver of slowReceivers) {
        receiver.hold();
        slow.push(await createWebhook(api, await receiver.listen(), ['dataset.created']));
      }
      for (const name of names) datasets.push((await api.post('/datasets', { name, workspace_id: principals.workspace.id })).body.id);

      const fast = await createWebhook(api, await fastReceiver.listen(), ['dataset.deleted']);
      await api.post(`/webhooks/${fast.id}/ping`);
      // Arrives while every slow target holds its first delivery, unanswered.
      const ping = await fastReceiver.waitFor((r) => r.event.type === 'ping', 10_000);
      expect(hasValidSignature(ping, fast.secret)).toBe(true);
      await expect.poll(() => slowReceivers.map((receiver) => receiver.open), { timeout: 10_000 }).toEqual(slowReceivers.map(() => 1));
      expect(slowReceivers.every((receiver) => receiver.received.length === 0)).toBe(true);

      for (const receiver of slowReceivers) receiver.release();
      await expect.poll(() => slowReceivers.every((receiver) => receiver.received.length === names.length), { timeout: 20_000 }).toBe(true);
      slowReceivers.forEach((receiver, i) => {
        expect(receiver.received.map((r) => r.event.data.name)).toEqual(names);
        expect(receiver.received.every((r) => hasValidSignature(r, slow[i].secret))).toBe(true);
        expect(receiver.mostOpen).toBe(1);
      });
    } finally {
      for (const receiver of slowReceivers) receiver.release();
      for (const webhook of slow) await api.delete(`/webhooks/${webhook.id}`);
      for (const id of datasets) await api.delete(`/datasets/${id}`);
      await Promise.all([...slowReceivers, fastReceiver].map((receiver) => receiver.close()));
    }
  });
});

describe('webhook delivery across a restart', () => {
  it('sends an event queued while the receiver was down once the next server runs', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-webhook-restart-'));
    const down = new WebhookReceiver();
    const url = await down.listen();
    const port = down.port;
    await down.close();

    let first: TestServer | undefined = await startTestServer({ env: ALLOW_PRIVATE, dataDir });
    let second: TestServer | undefined;
    const back = new WebhookReceiver();
    try {
      setWebhookRetryDelays([60_000]);
      const client = new TestApi(first.url).as({ apiKey: 'owner.apikey' });
      const webhook = await createWebhook(client, url, ['dataset.created']);
      await client.post(`/webhooks/${webhook.id}/ping`);
      await deliveryLog(client, webhook.id, (items) => items[0]?.attempts === 1 && items[0]?.status === 'pending');
      await first.close();
      first = undefined;

      setWebhookRetryDelays([300, 300, 300]);
      await back.listen(port);
      second = await startTestServer({ env: ALLOW_PRIVATE, dataDir });
      // The retry is due a minute after the failure: make it due now, as time passing would.
      await second.app.database.db.updateTable('webhook_deliveries').set({ next_attempt_at: '2000-01-01T00:00:00.000000' }).execute();
      const ping = await back.waitFor((r) => r.event.type === 'ping');
      expect(hasValidSignature(ping, webhook.secret)).toBe(true);
      const [entry] = await deliveryLog(new TestApi(second.url).as({ apiKey: 'owner.apikey' }), webhook.id, (items) => items[0]?.status === 'delivered');
      expect(entry.attempts).toBe(2);
    } finally {
      setWebhookRetryDelays([300, 300, 300]);
      await first?.close();
      await second?.close();
      await back.close().catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a task distribution change', () => {
  async function publishedDataset(records: number, client = api, workspaceId = principals.workspace.id) {
    const dataset = (await client.post('/datasets', { name: uniqueName('distributed'), workspace_id: workspaceId })).body;
    await client.post(`/datasets/${dataset.id}/fields`, { name: 'text', title: 'Text', required: true, settings: { type: 'text' } });
    await client.post(`/datasets/${dataset.id}/questions`, {
      name: 'label', title: 'Label', required: true, settings: { type: 'label_selection', options: [{ value: 'a', text: 'A' }, { value: 'b', text: 'B' }] },
    });
    expect((await client.put(`/datasets/${dataset.id}/publish`)).status).toBe(200);
    const ids: string[] = [];
    for (let start = 0; start < records; start += 500) {
      const items = Array.from({ length: Math.min(500, records - start) }, (_, i) => ({ external_id: `e${start + i}`, fields: { text: `record ${start + i}` } }));
      const res = await client.put(`/datasets/${dataset.id}/records/bulk`, { items });
      expect(res.status).toBe(200);
      ids.push(...res.body.items.map((item: { id: string }) => item.id));
    }
    return { dataset, ids };
  }

  const answer = (client: TestApi, recordId: string) =>
    client.post(`/records/${recordId}/responses`, { status: 'submitted', values: { label: { value: 'a' } } });

  it('sends record.updated for every record and record.completed for each completed one, after dataset.updated', async () => {
    const { dataset, ids } = await publishedDataset(3);
    expect((await answer(api, ids[0])).status).toBe(201);
    expect((await answer(principals.adminMember.api, ids[0])).status).toBe(201);
    expect((await answer(api, ids[1])).status).toBe(201);
    const webhook = await createWebhook(api, receiverUrl, ['dataset.updated', 'record.updated', 'record.completed']);
    const ofDataset = () => receiver.received.filter((r) => hasValidSignature(r, webhook.secret) && (r.event.data.dataset?.id ?? r.event.data.id) === dataset.id);

    expect((await api.patch(`/datasets/${dataset.id}`, { distribution: { strategy: 'overlap', min_submitted: 2 } })).status).toBe(200);
    await expect.poll(() => ofDataset().filter((r) => r.event.type === 'record.updated').length, { timeout: 10_000 }).toBe(3);
    await expect.poll(() => ofDataset().filter((r) => r.event.type === 'record.completed').length, { timeout: 10_000 }).toBe(1);
    const events = ofDataset();
    // Queued after the dataset's own event.
    const queued = await deliveryLog(api, webhook.id, (items) => items.length === 5);
    expect(queued.at(-1).event).toBe('dataset.updated');
    const updated = Object.fromEntries(events.filter((r) => r.event.type === 'record.updated').map((r) => [r.event.data.id, r.event.data.status]));
    expect(updated).toEqual({ [ids[0]]: 'completed', [ids[1]]: 'pending', [ids[2]]: 'pending' });
    const completed = events.find((r) => r.event.type === 'record.completed')!;
    expect(completed.event.data).toMatchObject({ id: ids[0], status: 'completed', dataset: { id: dataset.id, distribution: { min_submitted: 2 } } });

    // The same distribution again changes no status: nothing more is sent for the records.
    expect((await api.patch(`/datasets/${dataset.id}`, { distribution: { strategy: 'overlap', min_submitted: 2 } })).status).toBe(200);
    await expect.poll(() => ofDataset().filter((r) => r.event.type === 'dataset.updated').length, { timeout: 10_000 }).toBe(2);
    await api.delete(`/webhooks/${webhook.id}`);
    await api.delete(`/datasets/${dataset.id}`);
  });

  it('covers every record of a dataset larger than one batch, each once', { timeout: 60_000 }, async () => {
    const { dataset, ids } = await publishedDataset(1_050);
    const webhook = await createWebhook(api, receiverUrl, ['record.updated']);
    expect((await api.patch(`/datasets/${dataset.id}`, { distribution: { strategy: 'overlap', min_submitted: 3 } })).status).toBe(200);
    const ofDataset = () => receiver.received.filter((r) => r.event.type === 'record.updated' && r.event.data.dataset.id === dataset.id);
    await expect.poll(() => ofDataset().length, { timeout: 45_000, interval: 250 }).toBeGreaterThanOrEqual(ids.length);
    const sent = ofDataset().map((r) => r.event.data.id as string);
    expect(sent).toHaveLength(ids.length);
    expect(new Set(sent)).toEqual(new Set(ids));
    expect(receiver.received.some((r) => r.event.type === 'record.completed' && r.event.data.dataset?.id === dataset.id)).toBe(false);
    await api.delete(`/webhooks/${webhook.id}`);
    await api.delete(`/datasets/${dataset.id}`);
  });
  it('a job resumed after a stop goes on after the last batch it queued', async () => {
    const queueOnly = await startTestServer({ env: { SCHOLIA_JOB_WORKERS: 'external', SCHOLIA_WEBHOOKS_DELIVER: 'false' } });
    try {
      const client = new TestApi(queueOnly.url).as({ apiKey: 'owner.apikey' });
      const workspace = (await client.post('/workspaces', { name: uniqueName('resume') })).body;
      const { dataset, ids } = await publishedDataset(5, client, workspace.id);
      await createWebhook(client, receiverUrl, ['record.updated']);
      expect((await client.patch(`/datasets/${dataset.id}`, { distribution: { strategy: 'overlap', min_submitted: 2 } })).status).toBe(200);
      const { database, config } = queueOnly.app;
      const job = (await claimNextJob(database.db, 'resuming-worker', [RECORD_STATUS_EVENTS_JOB], database.dialect))!;
      const rids = await database.db.selectFrom('records').select('rid').where('dataset_id', '=', dataset.id).orderBy('rid').execute();
      // As a stop after the first three records' batch leaves it.
      const payload = { ...fromJson<Record<string, unknown>>(job.payload), after_rid: Number(rids[2].rid) };
      const silent = { info() {}, error() {} };
      await runRecordStatusEventsJob({ job, payload, secrets: {}, database, config, signal: new AbortController().signal, log: silent });
      const queued = await database.db.selectFrom('webhook_deliveries').select('body').where('event', '=', 'record.updated').execute();
      expect(queued.map((row) => JSON.parse(row.body).data.id)).toEqual(ids.slice(3));
      // The progress is stored with each batch: a further stop would resume after the last record.
      const stored = await database.db.selectFrom('jobs').select('payload').where('id', '=', job.id).executeTakeFirstOrThrow();
      expect(fromJson<{ after_rid: number }>(stored.payload).after_rid).toBe(Number(rids[4].rid));
    } finally {
      await queueOnly.close();
    }
  });
});

describe('a server stopping while a target has not answered', () => {
  it('stops at once and leaves the delivery pending, not counted as an attempt', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-webhook-stop-'));
    const hanging = http.createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    let first: TestServer | undefined = await startTestServer({ env: ALLOW_PRIVATE, dataDir });
    let second: TestServer | undefined;
    try {
      const client = new TestApi(first.url).as({ apiKey: 'owner.apikey' });
      const webhook = await createWebhook(client, `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`, ['dataset.created']);
      await client.post(`/webhooks/${webhook.id}/ping`);
      await deliveryLog(client, webhook.id, (items) => items[0]?.status === 'sending');
      const stopping = Date.now();
      await first.close();
      first = undefined;
      expect(Date.now() - stopping).toBeLessThan(10_000);

      second = await startTestServer({ env: { ...ALLOW_PRIVATE, SCHOLIA_WEBHOOKS_ALLOW_PRIVATE: 'false' }, dataDir });
      const [entry] = await deliveryLog(new TestApi(second.url).as({ apiKey: 'owner.apikey' }), webhook.id, (items) => items[0]?.status !== 'sending');
      // Handed back with no attempt counted; this server refuses the loopback target, which is its first attempt.
      expect(entry).toMatchObject({ attempts: 1, status: 'failed', last_error: expect.stringContaining('non-public address') });
    } finally {
      await first?.close();
      await second?.close();
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a delivery left sending by a process that died', () => {
  it('is sent again once its claim is stale', async () => {
    const webhook = await createWebhook(api, receiverUrl, ['dataset.created']);
    const body = JSON.stringify({ type: 'dataset.created', version: 1, timestamp: '2026-01-01T00:00:00.000000Z', data: { id: 'orphan' } });
    await server.app.database.db
      .insertInto('webhook_deliveries')
      .values({
        id: 'msg_orphaned', webhook_id: webhook.id, event: 'dataset.created', body, status: 'sending', attempts: 0,
        next_attempt_at: '2026-01-01T00:00:00.000000', claimed_by: 'a-dead-process', last_status_code: null, last_error: null,
        inserted_at: '2026-01-01T00:00:00.000000', updated_at: '2026-01-01T00:00:00.000000',
      })
      .execute();
    const received = await receiver.waitFor((r) => r.headers['webhook-id'] === 'msg_orphaned');
    expect(received.body).toBe(body);
    expect(hasValidSignature(received, webhook.secret)).toBe(true);
    await api.delete(`/webhooks/${webhook.id}`);
  });
});

describe('several server processes on one database', () => {
  it('send each event once', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-webhook-pair-'));
    const shared = new WebhookReceiver();
    const url = await shared.listen();
    const first = await startTestServer({ env: ALLOW_PRIVATE, dataDir });
    const second = await startTestServer({ env: ALLOW_PRIVATE, dataDir });
    try {
      const client = new TestApi(first.url).as({ apiKey: 'owner.apikey' });
      const other = new TestApi(second.url).as({ apiKey: 'owner.apikey' });
      const webhook = await createWebhook(client, url, ['dataset.created']);
      await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? client : other).post(`/webhooks/${webhook.id}/ping`)));
      const log = await deliveryLog(client, webhook.id, (items) => items.length === 20 && items.every((item) => item.status === 'delivered'), 20_000);
      expect(log.every((item) => item.attempts === 1)).toBe(true);
      const ids = shared.received.map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(20);
      expect(new Set(ids).size).toBe(20);
    } finally {
      await first.close();
      await second.close();
      await shared.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** IPv6 forms that reach an IPv4 loopback or private address, and the IPv6 non-public ranges. */
const DISGUISED_TARGETS = [
  '[::ffff:127.0.0.1]', '[::ffff:a00:1]', '[::127.0.0.1]', '[::10.0.0.1]', '[::ffff:0:127.0.0.1]', '[64:ff9b::7f00:1]',
  '[64:ff9b::192.168.0.1]', '[2002:7f00:1::]', '[2002:a00:1::1]', '[fec0::1]', '[fc00::1]', '[fd12:3456::1]', '[fe80::1]',
];

describe('webhook targets', () => {
  it('refuses loopback and private addresses when the webhook is saved, naming the setting that allows them', async () => {
    const strict = await startTestServer({ env: { SCHOLIA_WEBHOOKS_ALLOW_PRIVATE: 'false' } });
    try {
      const client = new TestApi(strict.url).as({ apiKey: 'owner.apikey' });
      const urls = [receiverUrl, receiverUrl.replace('127.0.0.1', 'localhost'), 'http://10.1.2.3/hook', 'http://[::1]:9/hook', ...DISGUISED_TARGETS.map((host) => `http://${host}:9/hook`)];
      for (const url of urls) {
        const res = await client.post('/webhooks', { url, events: ['dataset.created'] });
        expect(res.status, url).toBe(422);
        expect(res.body.detail).toMatch(/loopback or private addresses.*SCHOLIA_WEBHOOKS_ALLOW_PRIVATE=true/);
      }
      expect((await client.post('/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['dataset.created'] })).body.detail).toContain('the loopback address 127.0.0.1');
      expect((await client.post('/webhooks', { url: 'http://localhost:9/hook', events: ['dataset.created'] })).body.detail).toContain('localhost, which resolves to the loopback address');

      const allowed = await client.post('/webhooks', { url: 'https://example.com/hook', events: ['dataset.created'] });
      expect(allowed.status).toBe(201);
      const moved = await client.patch(`/webhooks/${allowed.body.id}`, { url: 'http://192.168.1.10/hook' });
      expect(moved.status).toBe(422);
      expect(moved.body.detail).toContain('SCHOLIA_WEBHOOKS_ALLOW_PRIVATE');
      expect((await client.get('/webhooks')).body.items.map((w: { url: string }) => w.url)).toEqual(['https://example.com/hook']);
    } finally {
      await strict.close();
    }
  });

  it('a server listening only on loopback takes loopback targets by default, still not private ones', async () => {
    const local = await startTestServer({ env: { SCHOLIA_HOST: '127.0.0.1' } });
    try {
      const client = new TestApi(local.url).as({ apiKey: 'owner.apikey' });
      const webhook = await createWebhook(client, receiverUrl, ['dataset.created']);
      await client.post(`/webhooks/${webhook.id}/ping`);
      const [entry] = await deliveryLog(client, webhook.id, (items) => items[0]?.status === 'delivered');
      expect(entry).toMatchObject({ attempts: 1, last_status_code: 200 });
      const privateTarget = await client.post('/webhooks', { url: 'http://10.1.2.3/hook', events: ['dataset.created'] });
      expect(privateTarget.status).toBe(422);
      expect(privateTarget.body.detail).toBe(
        'The webhook URL points to the private address 10.1.2.3. This server sends webhooks to loopback addresses but not to private ones; ' +
          'its administrator can allow them with SCHOLIA_WEBHOOKS_ALLOW_PRIVATE=true.',
      );
      expect((await client.post('/webhooks', { url: 'http://[::ffff:10.1.2.3]/hook', events: ['dataset.created'] })).status).toBe(422);
      await client.delete(`/webhooks/${webhook.id}`);
    } finally {
      await local.close();
    }
  });

  it('a server listening on every interface refuses loopback targets by default', async () => {
    const open = await startTestServer({ env: { SCHOLIA_HOST: '0.0.0.0' } });
    try {
      const client = new TestApi(open.url).as({ apiKey: 'owner.apikey' });
      expect((await client.post('/webhooks', { url: receiverUrl, events: ['dataset.created'] })).status).toBe(422);
    } finally {
      await open.close();
    }
  });

  it('refuses every disguised loopback or private address at connect time too, without retrying', async () => {
    for (const host of DISGUISED_TARGETS) {
      await expect(postWebhook(`http://${host}:9/hook`, {}, '{}', { allowed: 'none' }), host).rejects.toBeInstanceOf(WebhookTargetRefused);
    }
    await expect(postWebhook('http://[::ffff:127.0.0.1]:9/hook', {}, '{}', { allowed: 'loopback' })).rejects.not.toBeInstanceOf(WebhookTargetRefused);
    await expect(postWebhook('http://[::ffff:10.0.0.1]:9/hook', {}, '{}', { allowed: 'loopback' })).rejects.toBeInstanceOf(WebhookTargetRefused);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const redirecting = http.createServer((_request, response) => response.writeHead(302, { location: receiverUrl }).end());
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hook`;
      const webhook = await createWebhook(api, url, ['dataset.created']);
      const before = receiver.received.length;
      await api.post(`/webhooks/${webhook.id}/ping`);
      const [entry] = await deliveryLog(api, webhook.id, (items) => items[0]?.status === 'failed');
      expect(entry).toMatchObject({ attempts: 4, last_status_code: 302, last_error: 'The target answered 302' });
      expect(receiver.received.length).toBe(before);
      await api.delete(`/webhooks/${webhook.id}`);
    } finally {
      redirecting.closeAllConnections();
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    }
  });

  it('tells public addresses from the rest, IPv4 inside IPv6 included', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    for (const address of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', 'not-an-ip']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const host of DISGUISED_TARGETS) expect(isPublicAddress(host.slice(1, -1)), host).toBe(false);
    expect(classifyAddress('::7f00:1')).toBe('loopback');
    expect(classifyAddress('::ffff:7f00:1')).toBe('loopback');
    expect(classifyAddress('2002:7f00:1::')).toBe('loopback');
    expect(classifyAddress('fec0::1')).toBe('private');
  });
});

describe('an instance with SCHOLIA_WEBHOOKS_DELIVER=false', () => {
  it('queues events but sends none; an instance that delivers sends them', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-webhook-queue-only-'));
    const target = new WebhookReceiver();
    const url = await target.listen();
    let queueOnly: TestServer | undefined = await startTestServer({ env: { ...ALLOW_PRIVATE, SCHOLIA_WEBHOOKS_DELIVER: 'false' }, dataDir });
    let sender: TestServer | undefined;
    try {
      const client = new TestApi(queueOnly.url).as({ apiKey: 'owner.apikey' });
      const webhook = await createWebhook(client, url, ['dataset.created']);
      await client.post(`/webhooks/${webhook.id}/ping`);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(target.received).toEqual([]);
      const [queued] = await deliveryLog(client, webhook.id, (items) => items.length === 1);
      expect(queued).toMatchObject({ status: 'pending', attempts: 0 });
      await queueOnly.close();
      queueOnly = undefined;

      sender = await startTestServer({ env: ALLOW_PRIVATE, dataDir });
      const ping = await target.waitFor((r) => r.event.type === 'ping');
      expect(hasValidSignature(ping, webhook.secret)).toBe(true);
    } finally {
      await queueOnly?.close();
      await sender?.close();
      await target.close().catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
