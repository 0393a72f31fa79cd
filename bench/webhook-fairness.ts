/**
 * Webhook delivery bench: the real server in a child process (SQLite; PostgreSQL when
 * BENCH_DATABASE_URL / SCHOLIA_TEST_DATABASE_URL names one).
 *
 * 1. One webhook whose target answers at once and BENCH_WEBHOOK_EVENTS (default 1,000)
 *    `record.created` events from one bulk write: how fast a single webhook's queue drains.
 * 2. BENCH_SLOW_TARGETS (default 5) webhooks whose target answers after BENCH_SLOW_MS (default
 *    500 ms), 120 pings queued for each, then one ping to a webhook whose target answers at once:
 *    how long that ping took to arrive, beside how long the slow queues take to drain.
 *
 *   npx tsx bench/webhook-fairness.ts
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { httpClient, load1, startServerProcess } from './lib/server-process.js';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1_000);
const SLOW_TARGETS = Number(process.env.BENCH_SLOW_TARGETS ?? 5);
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 500);
const SLOW_QUEUE = 120;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.SCHOLIA_TEST_DATABASE_URL;

const print = (name: string, value: string | number) => console.log(`${name}: ${value} (load ${load1()})`);

/** A target that answers 200 after `delayMs`, counting what it received. */
async function target(delayMs: number) {
  const received: { at: number; type: string }[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = () => {
        received.push({ at: performance.now(), type: JSON.parse(Buffer.concat(chunks).toString('utf8')).type });
        response.writeHead(200).end();
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function until(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function main() {
  const server = await startServerProcess({ databaseUrl: DATABASE_URL, env: { SCHOLIA_WEBHOOKS_ALLOW_PRIVATE: 'true' } });
  const call = httpClient(server.base);
  const targets: Array<Awaited<ReturnType<typeof target>>> = [];
  print('database', DATABASE_URL ? 'postgresql' : 'sqlite');
  try {
    // 1. One webhook's queue.
    const fast = await target(0);
    targets.push(fast);
    const workspace = await call('POST', '/workspaces', { name: 'webhooks' });
    const dataset = await call('POST', '/datasets', { name: 'webhooks', workspace_id: workspace.id });
    await call('POST', `/datasets/${dataset.id}/fields`, { name: 'text', title: 'text', required: true, settings: { type: 'text' } });
    await call('POST', `/datasets/${dataset.id}/questions`, {
      name: 'label', title: 'Label', required: true, settings: { type: 'label_selection', options: [{ value: 'a', text: 'a' }, { value: 'b', text: 'b' }] },
    });
    await call('PUT', `/datasets/${dataset.id}/publish`);
    const drained = await call('POST', '/webhooks', { url: fast.url, events: ['record.created'] });
    const started = performance.now();
    for (let start = 0; start < EVENTS; start += 500) {
      const items = Array.from({ length: Math.min(500, EVENTS - start) }, (_, i) => ({ external_id: `r${start + i}`, fields: { text: `record ${start + i}` } }));
      await call('PUT', `/datasets/${dataset.id}/records/bulk`, { items });
    }
    await until(() => fast.received.length >= EVENTS, 600_000);
    const seconds = (performance.now() - started) / 1000;
    print('one_webhook_events', EVENTS);
    print('one_webhook_drain_s', seconds.toFixed(1));
    print('one_webhook_deliveries_per_s', (EVENTS / seconds).toFixed(0));
    await call('DELETE', `/webhooks/${drained.id}`);

    // 2. Slow targets with queues, then one ping to a target that answers at once.
    const slow = [];
    for (let i = 0; i < SLOW_TARGETS; i += 1) {
      const t = await target(SLOW_MS);
      targets.push(t);
      slow.push(await call('POST', '/webhooks', { url: t.url, events: ['dataset.deleted'] }));
    }
    const pinged = await target(0);
    targets.push(pinged);
    const other = await call('POST', '/webhooks', { url: pinged.url, events: ['dataset.deleted'] });
    for (let i = 0; i < SLOW_QUEUE; i += 1) await Promise.all(slow.map((webhook) => call('POST', `/webhooks/${webhook.id}/ping`)));
    const pingAt = performance.now();
    await call('POST', `/webhooks/${other.id}/ping`);
    await until(() => pinged.received.length === 1, 600_000);
    print('slow_targets', `${SLOW_TARGETS} answering in ${SLOW_MS} ms, ${SLOW_QUEUE} events queued each`);
    print('slow_queue_drain_s_at_least', ((SLOW_QUEUE * SLOW_MS) / 1000).toFixed(0));
    print('other_webhook_ping_ms', (pinged.received[0].at - pingAt).toFixed(0));
  } finally {
    await server.stop();
    await Promise.all(targets.map((t) => t.close()));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
