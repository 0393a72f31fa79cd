import { timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { postgresPoolState } from '../../storage/open-database.js';
import { countActiveJobs, countTextIndexQueue, webhookOutboxState } from '../../storage/repositories/operations.repository.js';

/**
 * `GET /metrics` in Prometheus' text format, when SCHOLIA_METRICS_TOKEN is set (otherwise the route
 * does not exist) and only for `Authorization: Bearer <token>`: route names, queue sizes and memory
 * tell an outsider too much. Request durations are kept in this process; queue and outbox figures
 * are read from the database at each scrape, so they are the same on every instance.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, options: { token?: string }) => {
    const token = options.token;
    if (!token) return;
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const registers = [registry];
    const db = app.database.db;

    const duration = new Histogram({
      name: 'scholia_http_request_duration_seconds',
      help: 'Time to answer a request, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    app.addHook('onResponse', async (request, reply) => {
      // The pattern, never the path: ids in paths would make a series per record.
      const route = request.routeOptions.url ?? 'unmatched';
      duration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    });

    new Gauge({
      name: 'scholia_database_pool_connections',
      help: 'PostgreSQL connections of this process, by state (in_use, idle, waiting: requests waiting for one)',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = postgresPoolState(db);
        if (!pool) return;
        this.set({ state: 'in_use' }, pool.inUse);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });
    new Gauge({
      name: 'scholia_jobs',
      help: 'Background jobs waiting (queued) or running (started)',
      labelNames: ['status'],
      registers,
      async collect() {
        await orSkip(async () => {
          const jobs = await countActiveJobs(db);
          this.set({ status: 'queued' }, jobs.queued);
          this.set({ status: 'started' }, jobs.started);
        });
      },
    });
    const outbox = () => webhookOutboxState(db);
    new Gauge({
      name: 'scholia_webhook_deliveries',
      help: 'Webhook deliveries not yet sent (pending) and given up after their last attempt (failed)',
      labelNames: ['status'],
      registers,
      async collect() {
        await orSkip(async () => {
          const state = await outbox();
          this.set({ status: 'pending' }, state.pending);
          this.set({ status: 'failed' }, state.failed);
        });
      },
    });
    new Gauge({
      name: 'scholia_webhook_outbox_lag_seconds',
      help: 'Age of the oldest webhook delivery not yet sent; 0 when none waits',
      registers,
      async collect() {
        await orSkip(async () => {
          const { oldestPendingAt } = await outbox();
          this.set(oldestPendingAt ? Math.max(0, (Date.now() - Date.parse(oldestPendingAt)) / 1000) : 0);
        });
      },
    });
    if (app.database.dialect === 'sqlite') {
      new Gauge({
        name: 'scholia_text_index_queue_depth',
        help: 'Record changes written but not yet in the text index',
        registers,
        async collect() {
          await orSkip(async () => this.set(await countTextIndexQueue(db)));
        },
      });
    }

    app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      if (!bearerMatches(request.headers.authorization, token)) {
        return reply.code(401).header('WWW-Authenticate', 'Bearer').send({ detail: 'GET /metrics needs the metrics token (Authorization: Bearer <SCHOLIA_METRICS_TOKEN>)' });
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  },
  { name: 'metrics', dependencies: ['database'] },
);

/** A database that cannot be reached leaves its gauges out of the scrape rather than failing it. */
async function orSkip(read: () => Promise<void>): Promise<void> {
  try {
    await read();
  } catch {
    // the readiness probe says why
  }
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
