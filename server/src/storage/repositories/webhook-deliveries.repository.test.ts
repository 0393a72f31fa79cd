import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { newId } from '../../lib/ids.js';
import { nowTimestamp } from '../../lib/time.js';
import type { WebhookDeliveryRow } from '../tables.js';
import { claimNextDelivery, endTurn, insertDeliveries, recordAttempt } from './webhook-deliveries.repository.js';
import { insertWebhook } from './webhooks.repository.js';

let server: TestServer;

beforeAll(async () => {
  // Nothing sends here: the tests claim themselves.
  server = await startTestServer({ env: { SCHOLIA_WEBHOOKS_DELIVER: 'false' } });
});
afterAll(() => server.close());

const LONG_AGO = '2000-01-01T00:00:00.000000';

/** `webhooks` new webhooks with `each` pending deliveries apiece, queued in turn; their ids in the order each was queued. */
async function queue(webhooks: number, each: number): Promise<{ webhookIds: string[]; deliveryIds: Map<string, string[]> }> {
  const { db } = server.app.database;
  const webhookIds: string[] = [];
  const deliveryIds = new Map<string, string[]>();
  for (let w = 0; w < webhooks; w += 1) {
    const now = nowTimestamp();
    const webhook = await insertWebhook(db, {
      id: newId(), url: 'http://127.0.0.1:9/hook', secret: 'c2VjcmV0', events: '["dataset.created"]', enabled: 1, description: null,
      sending_by: null, sending_since: null, served_at: null, inserted_at: now, updated_at: now,
    });
    webhookIds.push(webhook.id);
    deliveryIds.set(webhook.id, []);
  }
  const rows: WebhookDeliveryRow[] = [];
  for (let d = 0; d < each; d += 1) {
    for (const webhookId of webhookIds) {
      const id = `msg_${newId()}`;
      deliveryIds.get(webhookId)!.push(id);
      rows.push({
        id, webhook_id: webhookId, event: 'dataset.created', body: '{}', status: 'pending', attempts: 0, next_attempt_at: LONG_AGO,
        claimed_by: null, last_status_code: null, last_error: null, inserted_at: nowTimestamp(), updated_at: LONG_AGO,
      });
    }
  }
  await insertDeliveries(db, rows);
  return { webhookIds, deliveryIds };
}

async function clear(webhookIds: string[]): Promise<void> {
  await server.app.database.db.deleteFrom('webhooks').where('id', 'in', webhookIds).execute();
}

describe('claiming webhook deliveries', () => {
  it('gives each webhook one delivery in flight, its oldest, however many claim at once', async () => {
    const { webhookIds, deliveryIds } = await queue(3, 4);
    try {
      const { db } = server.app.database;
      const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => claimNextDelivery(db, `worker-${i}`, nowTimestamp(), LONG_AGO)));
      const claimed = claims.filter((claim) => claim !== undefined).map((claim) => claim.delivery);
      expect(claimed.map((claim) => claim.webhook_id).sort()).toEqual([...webhookIds].sort());
      for (const claim of claimed) expect(claim.id).toBe(deliveryIds.get(claim.webhook_id)![0]);
      // Until a turn ends, nothing more: the webhooks still have work due, but one in flight each.
      expect(await claimNextDelivery(db, 'worker-late', nowTimestamp(), LONG_AGO)).toBeUndefined();

      const first = claimed[0];
      await recordAttempt(db, first, first.claimed_by!, { status: 'delivered', attempts: 1, next_attempt_at: nowTimestamp(), last_status_code: 200, last_error: null, updated_at: nowTimestamp() });
      await endTurn(db, first.webhook_id, first.claimed_by!);
      const next = await claimNextDelivery(db, 'worker-late', nowTimestamp(), LONG_AGO);
      expect(next?.delivery).toMatchObject({ webhook_id: first.webhook_id, id: deliveryIds.get(first.webhook_id)![1] });
    } finally {
      await clear(webhookIds);
    }
  });

  it('serves the webhook that waited longest first, each webhook’s deliveries in the order queued', async () => {
    const { webhookIds, deliveryIds } = await queue(3, 3);
    try {
      const { db } = server.app.database;
      const served: WebhookDeliveryRow[] = [];
      for (let turn = 0; turn < 9; turn += 1) {
        const { webhook, delivery } = (await claimNextDelivery(db, 'worker', nowTimestamp(), LONG_AGO))!;
        expect(webhook.id).toBe(delivery.webhook_id);
        served.push(delivery);
        await recordAttempt(db, delivery, 'worker', { status: 'delivered', attempts: 1, next_attempt_at: nowTimestamp(), last_status_code: 200, last_error: null, updated_at: nowTimestamp() });
        await endTurn(db, delivery.webhook_id, 'worker');
      }
      // Round by round: every webhook once, in the same order each round.
      const rounds = [served.slice(0, 3), served.slice(3, 6), served.slice(6, 9)].map((round) => round.map((delivery) => delivery.webhook_id));
      expect(new Set(rounds[0])).toEqual(new Set(webhookIds));
      expect(rounds[1]).toEqual(rounds[0]);
      expect(rounds[2]).toEqual(rounds[0]);
      for (const webhookId of webhookIds) {
        expect(served.filter((delivery) => delivery.webhook_id === webhookId).map((delivery) => delivery.id)).toEqual(deliveryIds.get(webhookId));
      }
    } finally {
      await clear(webhookIds);
    }
  });

  it('lets another process take over a turn held since before the stale limit', async () => {
    const { webhookIds, deliveryIds } = await queue(1, 2);
    try {
      const { db } = server.app.database;
      const held = (await claimNextDelivery(db, 'a-process-that-stops', nowTimestamp(), LONG_AGO))!.delivery;
      expect(held.id).toBe(deliveryIds.get(webhookIds[0])![0]);
      expect(await claimNextDelivery(db, 'another', nowTimestamp(), LONG_AGO)).toBeUndefined();
      // The turn counts as stale once the limit passes its start.
      const taken = await claimNextDelivery(db, 'another', nowTimestamp(), nowTimestamp());
      expect(taken?.delivery).toMatchObject({ id: deliveryIds.get(webhookIds[0])![1], claimed_by: 'another' });
    } finally {
      await clear(webhookIds);
    }
  });
});
