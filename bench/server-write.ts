/**
 * Write-path benchmark: starts the real server in a child process (SQLite in a temp dir, free
 * port; PostgreSQL when BENCH_DATABASE_URL / SCHOLIA_TEST_DATABASE_URL names one); this process is
 * the load generator. Measures over HTTP:
 *  - bulk upsert throughput (PUT /datasets/{id}/records/bulk, 500 records per request, two text
 *    fields, three metadata values, one suggestion), without and with one 384-dim vector;
 *  - submit-response latency (POST /records/{id}/responses), each client its own annotator
 *    answering its own records:
 *      open loop: BENCH_CONCURRENCY (50) clients, each sending one request every second (the
 *        target's model), then every BENCH_SUBMIT_INTERVAL_MS (100; a stress rate), for
 *        BENCH_OPEN_SECONDS (20), whatever the previous one did; latency from the scheduled send
 *        time (no coordinated omission);
 *      closed loop: the same clients back to back over BENCH_RESPONSES (5,000) records →
 *        throughput and p50/p99.
 * `*_server_cpu_*` lines use the server process's own CPU time (/proc/<pid>/stat): a figure that
 * holds on a busy host, where wall-clock rates drop with every other process.
 *
 * Run from the repo root: `npx tsx bench/server-write.ts` (env BENCH_RECORDS, BENCH_VECTOR_RECORDS,
 * BENCH_RESPONSES, BENCH_CONCURRENCY, BENCH_OPEN_SECONDS, BENCH_SUBMIT_INTERVAL_MS override sizes).
 */
import { performance } from 'node:perf_hooks';
import { httpClient, load1, localPostgresCpuSeconds, percentile, startServerProcess } from './lib/server-process.js';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 30_000);
const VECTOR_RECORDS = Number(process.env.BENCH_VECTOR_RECORDS ?? 10_000);
const RESPONSES = Number(process.env.BENCH_RESPONSES ?? 5_000);
const CLIENTS = Number(process.env.BENCH_CONCURRENCY ?? 50);
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 20);
const INTERVAL_MS = Number(process.env.BENCH_SUBMIT_INTERVAL_MS ?? 100);
const BATCH = 500;
const IN_FLIGHT = 2; // bulk requests in flight: overlaps JSON parsing with the previous write
const DIMENSIONS = 384;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.SCHOLIA_TEST_DATABASE_URL;

const WORDS = (
  'the of and to in is was that for on with as by at from his her they this which an be have not are but had ' +
  'label record dataset model answer question review quality summary translation sentence language example data ' +
  'annotation feedback response prompt argument result value reason evidence source context topic opinion'
).split(' ');

let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const sentence = (words: number) => Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
const print = (name: string, value: string | number) => console.log(`${name}: ${value}`);
const withLoad = (name: string, value: string | number) => console.log(`${name}: ${value} (load ${load1()})`);

async function main() {
  const server = await startServerProcess({ databaseUrl: DATABASE_URL?.startsWith('postgres') ? DATABASE_URL : undefined });
  const call = httpClient(server.base);
  print('database', DATABASE_URL?.startsWith('postgres') ? 'postgres' : 'sqlite');

  try {
    const workspace = await call('POST', '/workspaces', { name: 'bench' });

    async function createDataset(name: string, withVector: boolean) {
      const dataset = await call('POST', '/datasets', { name, workspace_id: workspace.id });
      for (const field of ['prompt', 'response']) {
        await call('POST', `/datasets/${dataset.id}/fields`, { name: field, title: field, required: true, settings: { type: 'text' } });
      }
      const options = ['good', 'bad', 'neutral'].map((value) => ({ value, text: value }));
      const question = await call('POST', `/datasets/${dataset.id}/questions`, {
        name: 'quality', title: 'Quality', required: true, settings: { type: 'label_selection', options },
      });
      const metadata = [
        { name: 'category', settings: { type: 'terms', values: ['a', 'b', 'c', 'd'] } },
        { name: 'length', settings: { type: 'integer', min: 0, max: 100000 } },
        { name: 'score', settings: { type: 'float', min: 0, max: 1 } },
      ];
      for (const m of metadata) await call('POST', `/datasets/${dataset.id}/metadata-properties`, { ...m, title: m.name });
      if (withVector) await call('POST', `/datasets/${dataset.id}/vectors-settings`, { name: 'emb', title: 'emb', dimensions: DIMENSIONS });
      await call('PUT', `/datasets/${dataset.id}/publish`);
      return { id: dataset.id as string, questionId: question.id as string };
    }

    function batchBody(dataset: { questionId: string }, start: number, withVector: boolean): string {
      const items = Array.from({ length: BATCH }, (_, i) => {
        const n = start + i;
        const prompt = sentence(12);
        return {
          external_id: `rec-${n}`,
          fields: { prompt, response: sentence(16) },
          metadata: { category: 'abcd'[n % 4], length: prompt.length, score: Math.round(random() * 1000) / 1000 },
          suggestions: [{ question_id: dataset.questionId, value: ['good', 'bad', 'neutral'][n % 3], agent: 'bench-model', score: 0.5, type: 'model' }],
          ...(withVector ? { vectors: { emb: Array.from({ length: DIMENSIONS }, () => Math.round((random() * 2 - 1) * 1e6) / 1e6) } } : {}),
        };
      });
      return JSON.stringify({ items });
    }

    let lastCpuRate = 0;
    let lastPostgresCpuPerRecord = 0;
    /** Sends pre-serialised batches with IN_FLIGHT requests at a time; returns records/s. */
    async function runBulk(datasetId: string, bodies: string[], keepIds?: string[]): Promise<number> {
      let next = 0;
      const [cpu0, postgresCpu0] = [server.cpuSeconds(), localPostgresCpuSeconds()];
      const started = performance.now();
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (next < bodies.length) {
            const body = bodies[next++];
            const reply = await call('PUT', `/datasets/${datasetId}/records/bulk`, body, undefined, keepIds !== undefined);
            if (keepIds) for (const item of reply.items as { id: string }[]) keepIds.push(item.id);
          }
        }),
      );
      lastCpuRate = Math.round((bodies.length * BATCH) / Math.max(0.01, server.cpuSeconds() - cpu0));
      lastPostgresCpuPerRecord = ((localPostgresCpuSeconds() - postgresCpu0) / (bodies.length * BATCH)) * 1e6;
      return Math.round((bodies.length * BATCH) / ((performance.now() - started) / 1000));
    }

    // 1. plain bulk upsert
    const plain = await createDataset('bench-plain', false);
    const warmIds: string[] = [];
    await runBulk(plain.id, [batchBody(plain, 1_000_000, false), batchBody(plain, 1_000_500, false)], warmIds);
    const plainBodies = Array.from({ length: Math.ceil(RECORDS / BATCH) }, (_, i) => batchBody(plain, i * BATCH, false));
    const sample = JSON.parse(plainBodies[0]).items[0];
    const plainRate = await runBulk(plain.id, plainBodies);
    const [plainCpuRate, plainPostgresCpu] = [lastCpuRate, lastPostgresCpuPerRecord];
    // the same batches again: every record exists, so this is the update path
    const updateRate = await runBulk(plain.id, plainBodies.slice(0, Math.min(20, plainBodies.length)));

    // 2. with a 384-dim vector
    const vector = await createDataset('bench-vector', true);
    await runBulk(vector.id, [batchBody(vector, 1_000_000, true)]);
    const vectorBodies = Array.from({ length: Math.ceil(VECTOR_RECORDS / BATCH) }, (_, i) => batchBody(vector, i * BATCH, true));
    const vectorRate = await runBulk(vector.id, vectorBodies);
    const [vectorCpuRate, vectorPostgresCpu] = [lastCpuRate, lastPostgresCpuPerRecord];

    print('record_shape', `2 text fields (~${sample.fields.prompt.length}+${sample.fields.response.length} chars), 3 metadata, 1 suggestion; ${BATCH} per request, ${IN_FLIGHT} in flight`);
    withLoad('bulk_upsert_records_per_s', plainRate);
    print('bulk_upsert_records_per_server_cpu_s', plainCpuRate);
    // The database's own processes, when it is a local PostgreSQL (it shares the machine's cores).
    const onPostgres = DATABASE_URL?.startsWith('postgres');
    if (onPostgres) print('bulk_upsert_records_postgres_cpu_us_per_record', plainPostgresCpu.toFixed(0));
    withLoad('bulk_upsert_existing_records_per_s', updateRate);
    withLoad('bulk_upsert_vector384_records_per_s', vectorRate);
    print('bulk_upsert_vector384_records_per_server_cpu_s', vectorCpuRate);
    if (onPostgres) print('bulk_upsert_vector384_records_postgres_cpu_us_per_record', vectorPostgresCpu.toFixed(0));

    // 3. submit latency: CLIENTS annotators, each on its own records
    const annotators: string[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const user = await call('POST', '/users', { username: `annotator-${i}`, first_name: `A${i}`, role: 'annotator', password: 'annotator-password' });
      await call('POST', `/workspaces/${workspace.id}/users`, { user_id: user.id });
      annotators.push(user.api_key);
    }
    // Open loop at two rates: one submit per annotator per second (the target's model, as in the
    // scale bench) and INTERVAL_MS (a stress rate no team of 50 people reaches).
    const rates = [...new Set([1000, INTERVAL_MS])];
    const perClient = (interval: number) => Math.floor((OPEN_SECONDS * 1000) / interval);
    const openTotal = rates.reduce((sum, interval) => sum + CLIENTS * perClient(interval), 0);
    const recordIds: string[] = [];
    const idDataset = await createDataset('bench-submit', false);
    const idBodies = Array.from({ length: Math.ceil((openTotal + RESPONSES) / BATCH) }, (_, i) => batchBody(idDataset, i * BATCH, false));
    await runBulk(idDataset.id, idBodies, recordIds);
    const body = JSON.stringify({ status: 'submitted', values: { quality: { value: 'good' } } });
    const submit = (recordId: string, apiKey: string) => call('POST', `/records/${recordId}/responses`, body, apiKey, false);
    let nextRecord = 0;

    // 3a. open loop: latency from the scheduled send time (no coordinated omission)
    for (const interval of rates) {
      const count = perClient(interval);
      const ids = recordIds.slice(nextRecord, (nextRecord += CLIENTS * count));
      const name = interval === 1000 ? 'submit_open_loop_1s' : `submit_open_loop_${interval}ms`;
      const latencies: number[] = [];
      let errors = 0;
      const pending: Promise<void>[] = [];
      const cpu0 = server.cpuSeconds();
      const start = performance.now() + 100;
      await new Promise<void>((resolve) => {
        let scheduled = 0;
        for (let c = 0; c < CLIENTS; c++) {
          const phase = (c / CLIENTS) * interval;
          for (let k = 0; k < count; k++) {
            const due = start + phase + k * interval;
            const recordId = ids[c * count + k];
            setTimeout(() => {
              pending.push(
                submit(recordId, annotators[c])
                  .then(() => void latencies.push(performance.now() - due))
                  .catch((error: unknown) => {
                    if ((errors += 1) === 1) console.error(`first open-loop error: ${String((error as Error).cause ?? error)}`);
                  }),
              );
              if (++scheduled === CLIENTS * count) resolve();
            }, Math.max(0, due - performance.now()));
          }
        }
      });
      await Promise.all(pending);
      const seconds = (performance.now() - start) / 1000;
      latencies.sort((a, b) => a - b);
      print(`${name}_clients`, `${CLIENTS} (one request each per ${interval} ms, ${OPEN_SECONDS} s)`);
      print(`${name}_requests`, latencies.length);
      print(`${name}_errors`, errors);
      withLoad(`${name}_per_s`, Math.round(latencies.length / seconds));
      withLoad(`${name}_p50_ms`, percentile(latencies, 50).toFixed(1));
      withLoad(`${name}_p99_ms`, percentile(latencies, 99).toFixed(1));
      print(`${name}_server_cpu_ms_per_request`, (((server.cpuSeconds() - cpu0) * 1000) / Math.max(1, latencies.length)).toFixed(2));
    }

    // 3b. closed loop
    {
      const ids = recordIds.slice(nextRecord, nextRecord + RESPONSES);
      const latencies: number[] = [];
      let cursor = 0;
      const cpu0 = server.cpuSeconds();
      const started = performance.now();
      await Promise.all(
        annotators.map(async (apiKey) => {
          while (cursor < ids.length) {
            const recordId = ids[cursor++];
            const t0 = performance.now();
            await submit(recordId, apiKey);
            latencies.push(performance.now() - t0);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      print('submit_closed_loop_clients', CLIENTS);
      print('submit_closed_loop_requests', latencies.length);
      withLoad('submit_closed_loop_per_s', Math.round(latencies.length / seconds));
      withLoad('submit_closed_loop_p50_ms', percentile(latencies, 50).toFixed(1));
      withLoad('submit_closed_loop_p99_ms', percentile(latencies, 99).toFixed(1));
      print('submit_closed_loop_server_cpu_ms_per_request', (((server.cpuSeconds() - cpu0) * 1000) / latencies.length).toFixed(2));
    }
    print('server_rss_mib', server.memory().rssMiB.toFixed(0));
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
