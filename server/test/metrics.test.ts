import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/lib/ids.js';
import { nowTimestamp } from '../src/lib/time.js';
import { OWNER, startTestServer, type TestServer } from './test-server.js';

const TOKEN = 'metrics-token-0123456789abcdef';

async function scrape(server: TestServer, authorization?: string) {
  const res = await fetch(`${server.url}/metrics`, { headers: authorization ? { Authorization: authorization } : {} });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The value of one series, e.g. `scholia_jobs{status="queued"}`. */
function series(text: string, name: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('GET /metrics', () => {
  it('does not exist unless SCHOLIA_METRICS_TOKEN is set', async () => {
    const server = await startTestServer();
    try {
      expect((await scrape(server, `Bearer ${TOKEN}`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  describe('with a token', () => {
    let server: TestServer;
    beforeAll(async () => {
      // Jobs and deliveries stay queued: no worker and no deliverer in this process.
      server = await startTestServer({ env: { SCHOLIA_METRICS_TOKEN: TOKEN, SCHOLIA_JOB_WORKERS: 'external', SCHOLIA_WEBHOOKS_DELIVER: 'false' } });
    });
    afterAll(() => server.close());

    it('refuses a scrape without the token or with another one', async () => {
      for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`]) {
        const res = await scrape(server, authorization);
        expect(res.status).toBe(401);
        expect(JSON.parse(res.text)).toEqual({ detail: 'GET /metrics needs the metrics token (Authorization: Bearer <SCHOLIA_METRICS_TOKEN>)' });
      }
    });

    it('gives request durations by route pattern and status, memory and event-loop lag in Prometheus text', async () => {
      await fetch(`${server.url}/api/v1/me`, { headers: { 'X-Argilla-Api-Key': OWNER.apiKey } });
      await fetch(`${server.url}/api/v1/datasets/${newId()}`, { headers: { 'X-Argilla-Api-Key': OWNER.apiKey } });
      const res = await scrape(server, `Bearer ${TOKEN}`);
      expect(res.status).toBe(200);
      expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(series(res.text, 'scholia_http_request_duration_seconds_count{method="GET",route="/api/v1/me",status_code="200"}')).toBe(1);
      expect(series(res.text, 'scholia_http_request_duration_seconds_count{method="GET",route="/api/v1/datasets/:dataset_id",status_code="404"}')).toBe(1);
      expect(series(res.text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(res.text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    });

    it('gives the job queue, the webhook outbox and its lag, read from the database', async () => {
      const db = server.app.database.db;
      const now = nowTimestamp();
      const before = await scrape(server, `Bearer ${TOKEN}`);
      await db.insertInto('jobs').values({ id: newId(), type: 'noop', status: 'queued', payload: '{}', result: null, error: null, worker_id: null, inserted_at: now, updated_at: now }).execute();
      const webhookId = newId();
      await db.insertInto('webhooks').values({ id: webhookId, url: 'https://hooks.example.org/x', secret: 's', events: '["dataset.created"]', enabled: 1, description: null, inserted_at: now, updated_at: now }).execute();
      const queuedAt = new Date(Date.now() - 90_000).toISOString();
      for (const status of ['pending', 'failed'] as const) {
        await db
          .insertInto('webhook_deliveries')
          .values({ id: newId(), webhook_id: webhookId, event: 'dataset.created', body: '{}', status, attempts: 0, next_attempt_at: queuedAt, claimed_by: null, last_status_code: null, last_error: null, inserted_at: queuedAt, updated_at: queuedAt })
          .execute();
      }
      const after = await scrape(server, `Bearer ${TOKEN}`);
      expect(series(after.text, 'scholia_jobs{status="queued"}')).toBe(series(before.text, 'scholia_jobs{status="queued"}')! + 1);
      expect(series(after.text, 'scholia_webhook_deliveries{status="pending"}')).toBe(1);
      expect(series(after.text, 'scholia_webhook_deliveries{status="failed"}')).toBe(1);
      expect(series(after.text, 'scholia_webhook_outbox_lag_seconds')).toBeGreaterThanOrEqual(90);
      if (server.app.database.dialect === 'sqlite') expect(series(after.text, 'scholia_text_index_queue_depth')).toBeGreaterThanOrEqual(0);
      else expect(series(after.text, 'scholia_database_pool_connections{state="waiting"}')).toBe(0);
    });
  });
});
