/**
 * Write-path benchmark: boots the real server (SQLite in a temp dir, free port), builds datasets
 * through the API, then measures over HTTP:
 *  - bulk upsert throughput (PUT /datasets/{id}/records/bulk, 500 records per request, two text
 *    fields, three metadata values, one suggestion), without and with one 384-dim vector;
 *  - submit-response latency (POST /records/{id}/responses) under 50 concurrent clients, each
 *    client its own annotator answering its own records.
 *
 * `*_per_cpu_s` lines divide by this process's CPU time (server and client share it): a figure
 * that holds on a busy host, where wall-clock rates drop with every other process.
 *
 * Run from the repo root: `npx tsx bench/server-write.ts` (env BENCH_RECORDS, BENCH_VECTOR_RECORDS,
 * BENCH_RESPONSES, BENCH_CONCURRENCY override the sizes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../server/src/app.js';
import { ensureFirstOwner } from '../server/src/bootstrap/first-owner.js';
import { readConfig } from '../server/src/config.js';
import { openDatabase } from '../server/src/storage/open-database.js';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 30_000);
const VECTOR_RECORDS = Number(process.env.BENCH_VECTOR_RECORDS ?? 10_000);
const RESPONSES = Number(process.env.BENCH_RESPONSES ?? 5_000);
const CLIENTS = Number(process.env.BENCH_CONCURRENCY ?? 50);
const BATCH = 500;
const IN_FLIGHT = 2; // bulk requests in flight: overlaps JSON parsing with the previous write
const DIMENSIONS = 384;
const OWNER = { username: 'bench-owner', password: 'bench-password-1', apiKey: 'bench.owner.apikey' };

const WORDS = (
  'the of and to in is was that for on with as by at from his her they this which an be have not are but had ' +
  'label record dataset model answer question review quality summary translation sentence language example data ' +
  'annotation feedback response prompt argument result value reason evidence source context topic opinion'
).split(' ');

let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const sentence = (words: number) => Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-bench-'));
  const config = readConfig({ SCHOLIA_DATA_DIR: dataDir, SCHOLIA_DATABASE_URL: `sqlite:${path.join(dataDir, 'bench.db')}`, SCHOLIA_LOG_LEVEL: 'error' });
  const database = await openDatabase(config.databaseUrl);
  await ensureFirstOwner(database.db, OWNER);
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;

  const call = async (method: string, url: string, body?: unknown, apiKey = OWNER.apiKey) => {
    const res = await fetch(base + url, {
      method,
      headers: { 'X-Argilla-Api-Key': apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url} -> ${res.status} ${text.slice(0, 300)}`);
    // Bulk replies are large; the client only needs their status (keeps client CPU out of the figure).
    return text && !url.endsWith('/records/bulk') ? JSON.parse(text) : undefined;
  };

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

    /** Sends pre-serialised batches with IN_FLIGHT requests at a time; returns records/s. */
    async function runBulk(datasetId: string, bodies: string[]): Promise<number> {
      let next = 0;
      const cpu0 = process.cpuUsage();
      const started = performance.now();
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (next < bodies.length) {
            const body = bodies[next++];
            await call('PUT', `/datasets/${datasetId}/records/bulk`, body);
          }
        }),
      );
      const cpu = process.cpuUsage(cpu0);
      lastCpuRate = Math.round((bodies.length * BATCH) / ((cpu.user + cpu.system) / 1e6));
      return Math.round((bodies.length * BATCH) / ((performance.now() - started) / 1000));
    }
    let lastCpuRate = 0;

    // 1. plain bulk upsert
    const plain = await createDataset('bench-plain', false);
    const warm = [batchBody(plain, 1_000_000, false), batchBody(plain, 1_000_500, false)];
    await runBulk(plain.id, warm);
    const plainBodies = Array.from({ length: Math.ceil(RECORDS / BATCH) }, (_, i) => batchBody(plain, i * BATCH, false));
    const sample = JSON.parse(plainBodies[0]).items[0];
    const plainRate = await runBulk(plain.id, plainBodies);
    const plainCpuRate = lastCpuRate;
    // the same batches again: every record exists, so this is the update path
    const updateRate = await runBulk(plain.id, plainBodies.slice(0, Math.min(20, plainBodies.length)));

    // 2. with a 384-dim vector
    const vector = await createDataset('bench-vector', true);
    await runBulk(vector.id, [batchBody(vector, 1_000_000, true)]);
    const vectorBodies = Array.from({ length: Math.ceil(VECTOR_RECORDS / BATCH) }, (_, i) => batchBody(vector, i * BATCH, true));
    const vectorRate = await runBulk(vector.id, vectorBodies);
    const vectorCpuRate = lastCpuRate;

    // 3. submit-response latency, CLIENTS concurrent annotators on distinct records
    const annotators: string[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const user = await call('POST', '/users', { username: `annotator-${i}`, first_name: `A${i}`, role: 'annotator', password: 'annotator-password' });
      await call('POST', `/workspaces/${workspace.id}/users`, { user_id: user.id });
      annotators.push(user.api_key);
    }
    const listing = await database.db.selectFrom('records').select('id').where('dataset_id', '=', plain.id).orderBy('rid').limit(RESPONSES).execute();
    const recordIds = listing.map((r) => r.id);
    const body = JSON.stringify({ status: 'submitted', values: { quality: { value: 'good' } } });
    const latencies: number[] = [];
    let cursor = 0;
    const respondCpu0 = process.cpuUsage();
    const respondStarted = performance.now();
    await Promise.all(
      annotators.map(async (apiKey) => {
        while (cursor < recordIds.length) {
          const recordId = recordIds[cursor++];
          const t0 = performance.now();
          await call('POST', `/records/${recordId}/responses`, body, apiKey);
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const respondSeconds = (performance.now() - respondStarted) / 1000;
    const respondCpu = process.cpuUsage(respondCpu0);
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);

    console.log(`record_shape: 2 text fields (~${sample.fields.prompt.length}+${sample.fields.response.length} chars), 3 metadata, 1 suggestion; ${BATCH} per request, ${IN_FLIGHT} in flight`);
    console.log(`bulk_upsert_records_per_s: ${plainRate}`);
    console.log(`bulk_upsert_records_per_cpu_s: ${plainCpuRate}`);
    console.log(`bulk_upsert_existing_records_per_s: ${updateRate}`);
    console.log(`bulk_upsert_vector384_records_per_s: ${vectorRate}`);
    console.log(`bulk_upsert_vector384_records_per_cpu_s: ${vectorCpuRate}`);
    console.log(`submit_response_clients: ${CLIENTS}`);
    console.log(`submit_response_requests: ${latencies.length}`);
    console.log(`submit_response_per_s: ${Math.round(latencies.length / respondSeconds)}`);
    console.log(`submit_response_cpu_ms_per_request: ${((respondCpu.user + respondCpu.system) / 1000 / latencies.length).toFixed(2)}`);
    console.log(`submit_response_p50_ms: ${pct(50)}`);
    console.log(`submit_response_p99_ms: ${pct(99)}`);
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
