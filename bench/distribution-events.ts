/**
 * Task distribution change bench: the real server in a child process on SQLite, a published
 * dataset of BENCH_DISTRIBUTION_RECORDS records (default 100,000) and a webhook subscribed to
 * `record.updated` and `record.completed`. Changing `min_submitted` recomputes every record's status
 * (one statement in the PATCH) and queues both events per record in the background; meanwhile a
 * probe calls `GET /api/_status` every 20 ms. Prints the PATCH's time, how long the events took to
 * queue, and the probe's latencies during the PATCH and during the job: the slowest probe of a phase
 * bounds how long the event loop was held in it.
 * The server only queues (SCHOLIA_WEBHOOKS_DELIVER=false): sending is the deliverer's work, timed elsewhere.
 *
 *   npx tsx bench/distribution-events.ts
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { httpClient, load1, percentile, startServerProcess } from './lib/server-process.js';

const RECORDS = Number(process.env.BENCH_DISTRIBUTION_RECORDS ?? 100_000);
const BATCH = 500;
const PROBE_EVERY_MS = 20;

const print = (name: string, value: string | number) => console.log(`${name}: ${value} (load ${load1()})`);

async function main() {
  const server = await startServerProcess({ env: { SCHOLIA_WEBHOOKS_DELIVER: 'false', SCHOLIA_WEBHOOKS_ALLOW_PRIVATE: 'true' } });
  const call = httpClient(server.base);
  print('records', RECORDS);
  try {
    const workspace = await call('POST', '/workspaces', { name: 'distribution' });
    const dataset = await call('POST', '/datasets', { name: 'distribution', workspace_id: workspace.id, distribution: { strategy: 'overlap', min_submitted: 2 } });
    await call('POST', `/datasets/${dataset.id}/fields`, { name: 'text', title: 'text', required: true, settings: { type: 'text' } });
    await call('POST', `/datasets/${dataset.id}/questions`, {
      name: 'label', title: 'Label', required: true, settings: { type: 'label_selection', options: [{ value: 'a', text: 'a' }, { value: 'b', text: 'b' }] },
    });
    await call('PUT', `/datasets/${dataset.id}/publish`);
    const me = await call('GET', '/me');
    for (let start = 0; start < RECORDS; start += BATCH) {
      const items = Array.from({ length: Math.min(BATCH, RECORDS - start) }, (_, i) => ({
        external_id: `r${start + i}`,
        fields: { text: `record ${start + i} of the distribution bench` },
        // Every third record answered once: pending now, completed once one answer is enough.
        ...((start + i) % 3 === 0 ? { responses: [{ user_id: me.id, status: 'submitted', values: { label: { value: 'a' } } }] } : {}),
      }));
      await call('PUT', `/datasets/${dataset.id}/records/bulk`, { items });
    }
    await call('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['record.updated', 'record.completed'] });

    const db = new Database(path.join(server.dataDir, 'bench.db'), { readonly: true });
    // Probes that overlap the PATCH (its status recount is one statement) and those after it (the job).
    const probes = { patch: [] as number[], job: [] as number[] };
    let phase: keyof typeof probes = 'patch';
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const started = performance.now();
        const during = phase;
        await fetch(server.base.replace('/api/v1', '/api/_status'));
        probes[during === 'patch' || phase === 'patch' ? 'patch' : 'job'].push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
      }
    })();

    const patchStart = performance.now();
    await call('PATCH', `/datasets/${dataset.id}`, { distribution: { strategy: 'overlap', min_submitted: 1 } });
    phase = 'job';
    const jobCpuStart = server.mainThreadCpuSeconds();
    print('patch_ms', (performance.now() - patchStart).toFixed(0));
    const jobDone = () => db.prepare(`SELECT status FROM jobs WHERE type = 'record-status-events'`).pluck().get() as string | undefined;
    while (!['finished', 'failed'].includes(jobDone() ?? '')) await new Promise((resolve) => setTimeout(resolve, 200));
    const queuedMs = performance.now() - patchStart;
    // The event loop's own time per batch of the job (200 records), whatever else the machine runs.
    const jobCpuMs = (server.mainThreadCpuSeconds() - jobCpuStart) * 1000;
    probing = false;
    await probe;
    const deliveries = db.prepare('SELECT event, count(*) AS n FROM webhook_deliveries GROUP BY event ORDER BY event').all() as { event: string; n: number }[];
    print('job', jobDone() ?? 'none');
    db.close();
    for (const { event, n } of deliveries) print(`queued ${event}`, n);
    print('events_queued_s', (queuedMs / 1000).toFixed(1));
    print('job_main_thread_cpu_ms_per_200_records', ((jobCpuMs / RECORDS) * 200).toFixed(1));
    for (const [during, latencies] of Object.entries(probes)) {
      const sorted = [...latencies].sort((a, b) => a - b);
      print(`probes_during_${during}`, sorted.length);
      print(`probe_during_${during}_p50_ms`, percentile(sorted, 50).toFixed(1));
      print(`probe_during_${during}_p99_ms`, percentile(sorted, 99).toFixed(1));
      print(`probe_during_${during}_max_ms`, sorted[sorted.length - 1].toFixed(1));
    }
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
