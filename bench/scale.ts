/**
 * Scale bench (1M records): the real server in a child process (SQLite in a temp dir by default,
 * PostgreSQL when SCHOLIA_TEST_DATABASE_URL / BENCH_DATABASE_URL names one), this process as the
 * load generator. Measures over HTTP:
 *  1. ingestion: BENCH_SCALE_RECORDS records (default 1,000,000; two text fields, three metadata,
 *     one suggestion, one 384-dim vector on every 10th record) through PUT /records/bulk, 500 per
 *     request, BENCH_IN_FLIGHT (3) requests in flight → records/s (overall, first and last 100k);
 *     meanwhile, how long after its acknowledgement a written record is found by text search
 *     (one probe word every 10 batches, searched as soon as its batch is acknowledged);
 *  2. search p50/p95, one request at a time: filter-only (metadata range ≈10%), text (one
 *     mid-frequency term), filter+text (relevance order), filter+text+sort, similarity (50
 *     nearest to a record), and the annotator's `/me` pending view;
 *  3. submit latency with BENCH_ANNOTATORS (200) annotators, open loop: each sends one
 *     POST /records/{id}/responses every second for BENCH_SUBMIT_SECONDS (60), on its own records,
 *     whether or not its previous request came back; latency counted from the scheduled send time;
 *     after BENCH_SUBMIT_WARMUP (400) submits by one annotator on other records (0: none);
 *  4. server RSS (VmRSS of the child) 5 s after the searches, at rest (BENCH_REST_SECONDS, 40, later:
 *     the idle threads have stopped) and under the submit load.
 * Every figure is followed by the 1-minute load average when it was taken (the host is shared).
 *
 *   npx tsx bench/scale.ts                                           # SQLite
 *   node scripts/with-postgres.mjs npx tsx bench/scale.ts            # PostgreSQL
 *   BENCH_SCALE_RECORDS=100000 npx tsx bench/scale.ts                # smaller
 *   BENCH_INGEST_MAX_SECONDS=900 ...                                 # stop ingesting after 15 min
 *   BENCH_INGEST_ONLY=1 ...                                          # ingestion figures only
 *   BENCH_TEXT_PROBES=0 ...                                          # no text searches during the ingestion
 *   BENCH_SERVER_RUNTIME=js ...                                      # server as plain JS (no tsx loader)
 */
import { performance } from 'node:perf_hooks';
import {
  OWNER,
  VOCABULARY,
  clusteredVectorFactory,
  hostStolenCpuSeconds,
  httpClient,
  load1,
  localPostgresCpuSeconds,
  ownCpuSeconds,
  percentile,
  random,
  sentencePool,
  startServerProcess,
} from './lib/server-process.js';

const RECORDS = Number(process.env.BENCH_SCALE_RECORDS ?? 1_000_000);
const BATCH = 500;
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 3);
const VECTOR_EVERY = 10;
/**
 * Text searches during the ingestion (BENCH_TEXT_PROBES=0: none, to measure the ingestion apart
 * from them). Each waits for its dataset's queued text index writes.
 */
const TEXT_PROBES = process.env.BENCH_TEXT_PROBES !== '0';
/** Every this many batches, one record gets a word of its own (the searchable-after-write probe). */
const PROBE_EVERY = 10;
/** Records per rate segment (first and last 100k). */
const SEGMENT = 100_000;
const SUBMIT_WARMUP = Number(process.env.BENCH_SUBMIT_WARMUP ?? 400);
const DIMENSIONS = 384;
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const WARMUP = 5;
const ANNOTATORS = Number(process.env.BENCH_ANNOTATORS ?? 200);
const SUBMIT_SECONDS = Number(process.env.BENCH_SUBMIT_SECONDS ?? 60);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.SCHOLIA_TEST_DATABASE_URL;
/** Stop sending new batches after this many seconds and measure at the size reached (0 = no limit). */
const INGEST_MAX_SECONDS = Number(process.env.BENCH_INGEST_MAX_SECONDS ?? 0);
/** Only the ingestion figures (and RSS at rest after it). */
const INGEST_ONLY = process.env.BENCH_INGEST_ONLY === '1';
/** Idle seconds after the searches before RSS at rest is read. */
const REST_SECONDS = Number(process.env.BENCH_REST_SECONDS ?? 40);
/** Pause between the first search after the ingestion and the measured searches. */
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 120);

const print = (name: string, value: string | number, note = '') =>
  console.log(`${name}: ${value}${note ? ` ${note}` : ''}`);
const withLoad = (name: string, value: string | number) => print(name, value, `(load ${load1()})`);

async function main() {
  const dialect = DATABASE_URL?.startsWith('postgres') ? 'postgres' : 'sqlite';
  const server = await startServerProcess({ databaseUrl: DATABASE_URL?.startsWith('postgres') ? DATABASE_URL : undefined });
  const call = httpClient(server.base);
  print('database', dialect);
  print('records', RECORDS);
  print('host', `${(await import('node:os')).cpus().length} cores, node ${process.version}`);
  withLoad('rss_mib_start', server.memory().rssMiB.toFixed(0));
  let rssSampler: NodeJS.Timeout | undefined;
  try {
    // ---- dataset settings through the API ----
    const workspace = await call('POST', '/workspaces', { name: 'scale' });
    const dataset = await call('POST', '/datasets', { name: 'scale', workspace_id: workspace.id });
    for (const field of ['prompt', 'response']) {
      await call('POST', `/datasets/${dataset.id}/fields`, { name: field, title: field, required: true, settings: { type: 'text' } });
    }
    const labels = ['good', 'bad', 'neutral'];
    const question = await call('POST', `/datasets/${dataset.id}/questions`, {
      name: 'quality', title: 'Quality', required: true,
      settings: { type: 'label_selection', options: labels.map((value) => ({ value, text: value })) },
    });
    for (const m of [
      { name: 'category', settings: { type: 'terms', values: null } },
      { name: 'length', settings: { type: 'integer', min: null, max: null } },
      { name: 'score', settings: { type: 'float', min: null, max: null } },
    ]) {
      await call('POST', `/datasets/${dataset.id}/metadata-properties`, { ...m, title: m.name });
    }
    await call('POST', `/datasets/${dataset.id}/vectors-settings`, { name: 'emb', title: 'emb', dimensions: DIMENSIONS });
    await call('PUT', `/datasets/${dataset.id}/publish`);

    // ---- annotators (before ingestion: password hashing is not part of any figure) ----
    const annotatorKeys: string[] = [];
    for (let i = 0; i < ANNOTATORS; i++) {
      const user = await call('POST', '/users', { username: `annotator-${i}`, first_name: `A${i}`, role: 'annotator', password: 'annotator-password' });
      await call('POST', `/workspaces/${workspace.id}/users`, { user_id: user.id });
      annotatorKeys.push(user.api_key);
    }

    // ---- 1. ingestion ----
    const categories = Array.from({ length: 20 }, (_, i) => `cat-${i}`);
    const agents = ['gpt-4', 'llama', 'mistral'];
    const vector = clusteredVectorFactory(DIMENSIONS);
    const [prompt, response] = [sentencePool(25), sentencePool(45)];
    function batchBody(start: number, count = BATCH, prefix = 'rec'): string {
      const items = Array.from({ length: count }, (_, i) => {
        const n = start + i;
        return {
          external_id: `${prefix}-${n}`,
          // One record of every PROBE_EVERY-th batch carries a word of its own, searched right after the write.
          fields: { prompt: i === 0 && start % (BATCH * PROBE_EVERY) === 0 && prefix === 'rec' ? `${prompt()} probe${start}` : prompt(), response: response() },
          metadata: { category: categories[Math.floor(random() * 20)], length: Math.floor(random() * 1000), score: Math.round(random() * 1e4) / 1e4 },
          suggestions: [{ question_id: question.id, value: labels[Math.floor(random() * 3)], agent: agents[n % 3], score: Math.round(random() * 100) / 100, type: 'model' }],
          ...(n % VECTOR_EVERY === 0 ? { vectors: { emb: vector() } } : {}),
        };
      });
      return JSON.stringify({ items });
    }
    // Record ids are read from the first replies: enough for the submit phase, its warm-up and similarity queries.
    const idsNeeded = ANNOTATORS * SUBMIT_SECONDS + SUBMIT_WARMUP;
    const recordIds: string[] = [];
    const vectorRecordIds: string[] = [];
    const batches = Math.ceil(RECORDS / BATCH);
    let next = 0;
    let done = 0;
    let peakRss = 0;
    const ingestStart = performance.now();
    const cpu0 = server.cpuSeconds();
    const mainCpu0 = server.mainThreadCpuSeconds();
    const stolen0 = hostStolenCpuSeconds();
    const threads0 = server.threadCpuSeconds();
    const [postgresCpu0, benchCpu0] = [localPostgresCpuSeconds(), ownCpuSeconds()];
    let lastReport = ingestStart;
    // Text search after the write: how long from a batch's acknowledgement until its probe word is
    // found. Each probe searches on its own, right after the acknowledgement and again until found
    // (a search waits for its dataset's queued writes, up to 10 s): probes searched one after the
    // other would add each one's wait to the next ones' lag.
    const segmentEnds: number[] = []; // when each SEGMENT records were acknowledged
    const segmentCpu: { all: number; main: number; stolen: number }[] = []; // the server's CPU seconds then, and the host's steal
    const searchableAfterMs: number[] = [];
    const probing: Promise<void>[] = [];
    let probesOverBound = 0;
    const probe = async (word: string, ackedAt: number) => {
      for (;;) {
        const found = await call('POST', `/datasets/${dataset.id}/records/search?limit=1`, { query: { text: { q: word } } });
        if (found.total > 0) break;
      }
      const lag = performance.now() - ackedAt;
      searchableAfterMs.push(lag);
      if (lag > 2_000) probesOverBound++;
    };
    const ingestion = Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < batches) {
          if (INGEST_MAX_SECONDS > 0 && performance.now() - ingestStart > INGEST_MAX_SECONDS * 1000) break;
          const b = next++;
          const count = Math.min(BATCH, RECORDS - b * BATCH);
          const needIds = b * BATCH < Math.max(idsNeeded, 5_000);
          const reply = await call('PUT', `/datasets/${dataset.id}/records/bulk`, batchBody(b * BATCH, count), OWNER.apiKey, needIds);
          if (TEXT_PROBES && b % PROBE_EVERY === 0) probing.push(probe(`probe${b * BATCH}`, performance.now()));
          if (needIds) {
            for (const item of reply.items as { id: string; external_id: string }[]) {
              const n = Number(item.external_id.slice(4));
              recordIds[n] = item.id;
              if (n % VECTOR_EVERY === 0) vectorRecordIds.push(item.id);
            }
          }
          done += count;
          if (Math.floor(done / SEGMENT) > segmentEnds.length) {
            segmentEnds.push(performance.now());
            segmentCpu.push({ all: server.cpuSeconds(), main: server.mainThreadCpuSeconds(), stolen: hostStolenCpuSeconds() });
          }
          if (b % 20 === 0) peakRss = Math.max(peakRss, server.memory().rssMiB);
          const now = performance.now();
          if (now - lastReport > 30_000) {
            lastReport = now;
            console.error(`  ingested ${done} (${Math.round(done / ((now - ingestStart) / 1000))}/s, load ${load1()}, rss ${server.memory().rssMiB.toFixed(0)} MiB)`);
          }
        }
      }),
    );
    await ingestion;
    const ingestSeconds = (performance.now() - ingestStart) / 1000;
    await Promise.all(probing);
    if (done < RECORDS) print('records_ingested', `${done} (stopped by BENCH_INGEST_MAX_SECONDS=${INGEST_MAX_SECONDS})`);
    withLoad('ingest_records_per_s', Math.round(done / ingestSeconds));
    print('ingest_seconds', ingestSeconds.toFixed(0));
    print('ingest_server_cpu_s_per_1k_records', ((server.cpuSeconds() - cpu0) / (done / 1000)).toFixed(3));
    print('ingest_main_thread_cpu_s_per_1k_records', ((server.mainThreadCpuSeconds() - mainCpu0) / (done / 1000)).toFixed(3));
    // The rest of the machine's CPU: the database's processes when local, and this load generator.
    if (DATABASE_URL?.startsWith('postgres')) print('ingest_postgres_cpu_us_per_record', (((localPostgresCpuSeconds() - postgresCpu0) / done) * 1e6).toFixed(0));
    print('ingest_load_generator_cpu_us_per_record', (((ownCpuSeconds() - benchCpu0) / done) * 1e6).toFixed(0));
    print('rss_mib_peak_during_ingest', peakRss.toFixed(0));
    // Where the server's CPU went, per thread name (workers show as their thread names).
    const threads = [...server.threadCpuSeconds()].map(([name, cpu]) => [name, cpu - (threads0.get(name) ?? 0)] as const).filter(([, cpu]) => cpu >= 0.5);
    print('ingest_cpu_s_by_thread', threads.sort((a, b) => b[1] - a[1]).map(([name, cpu]) => `${name} ${cpu.toFixed(1)}`).join(', '));
    if (segmentEnds.length >= 2) {
      const rate = (from: number, to: number) => Math.round(SEGMENT / ((to - from) / 1000));
      print('ingest_records_per_s_first_100k', rate(ingestStart, segmentEnds[0]));
      print('ingest_records_per_s_last_100k', rate(segmentEnds[segmentEnds.length - 2], segmentEnds[segmentEnds.length - 1]));
      // Whether the server does more work per record as the dataset grows, or gets less of the CPU.
      const cpuPerRecord = (from: { all: number; main: number }, to: { all: number; main: number }) =>
        `${Math.round(((to.all - from.all) / SEGMENT) * 1e6)} / ${Math.round(((to.main - from.main) / SEGMENT) * 1e6)}`;
      print('ingest_server_cpu_us_per_record_first_100k_all_main', cpuPerRecord({ all: cpu0, main: mainCpu0 }, segmentCpu[0]));
      print('ingest_server_cpu_us_per_record_last_100k_all_main', cpuPerRecord(segmentCpu[segmentCpu.length - 2], segmentCpu[segmentCpu.length - 1]));
      // A shared host's share of the difference: CPU time the hypervisor gave to other guests.
      const stolen = (from: number, to: number) => (to - from).toFixed(1);
      print('ingest_host_stolen_cpu_s_first_last_100k', `${stolen(stolen0, segmentCpu[0].stolen)} / ${stolen(segmentCpu[segmentCpu.length - 2].stolen, segmentCpu[segmentCpu.length - 1].stolen)}`);
    }
    searchableAfterMs.sort((a, b) => a - b);
    print('text_searchable_after_ack_probes', searchableAfterMs.length);
    print('text_searchable_after_ack_p50_ms', percentile(searchableAfterMs, 50).toFixed(0));
    print('text_searchable_after_ack_p99_ms', percentile(searchableAfterMs, 99).toFixed(0));
    print('text_searchable_after_ack_max_ms', (searchableAfterMs[searchableAfterMs.length - 1] ?? 0).toFixed(0));
    print('text_searchable_after_ack_over_2s', probesOverBound);

    if (INGEST_ONLY) {
      await new Promise((r) => setTimeout(r, REST_SECONDS * 1000));
      withLoad('rss_mib_at_rest_after_ingest', server.memory().rssMiB.toFixed(0));
      return;
    }

    // ---- 2. search ----
    const searchUrl = `/datasets/${dataset.id}/records/search?limit=50`;
    const midWords = VOCABULARY.slice(60, 600);
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
    const ids = recordIds.filter(Boolean);
    async function measure(name: string, request: () => Promise<{ total: number }>) {
      const times: number[] = [];
      let totals = 0;
      for (let run = 0; run < WARMUP + RUNS; run++) {
        const t0 = performance.now();
        const result = await request();
        const elapsed = performance.now() - t0;
        if (run >= WARMUP) {
          times.push(elapsed);
          totals += result.total;
        }
      }
      // Which runs were slowest (ms@run): a cluster at the start is a copy still being built.
      const slowest = times.map((time, run) => [time, run]).sort((a, b) => b[0] - a[0]).slice(0, 3);
      print(`search_${name}_slowest`, slowest.map(([time, run]) => `${time.toFixed(0)}@${run}`).join(' '));
      times.sort((a, b) => a - b);
      withLoad(`search_${name}_p50_ms`, percentile(times, 50).toFixed(1));
      withLoad(`search_${name}_p95_ms`, percentile(times, 95).toFixed(1));
      print(`search_${name}_mean_total`, Math.round(totals / RUNS));
    }
    const metadataRange = () => {
      const ge = Math.floor(random() * 900);
      return { type: 'range', scope: { entity: 'metadata', metadata_property: 'length' }, ge, le: ge + 99 };
    };
    // The first search after the ingestion starts building the dataset's in-memory copies (metadata
    // columns, ~3 s at 1M; text champion lists, ~25 s: server/src/storage/search/) while SQL
    // answers; measured apart, then the searches below run once the copies are in memory, as on a
    // server that has been up a while.
    let t0 = performance.now();
    await call('POST', searchUrl, { filters: { and: [metadataRange()] } });
    withLoad('search_first_after_ingest_ms', (performance.now() - t0).toFixed(0));
    await new Promise((r) => setTimeout(r, SETTLE_SECONDS * 1000));
    print('search_settle_seconds', SETTLE_SECONDS);
    await measure('filter', () => call('POST', searchUrl, { filters: { and: [metadataRange()] } }));
    await measure('text', () => call('POST', searchUrl, { query: { text: { q: pick(midWords) } } }));
    // Relevance order, as the annotation screen's search box with a metadata filter asks.
    await measure('filter_text', () =>
      call('POST', searchUrl, {
        query: { text: { q: pick(midWords) } },
        filters: { and: [{ type: 'range', scope: { entity: 'metadata', metadata_property: 'length' }, ge: 0, le: 499 }] },
      }),
    );
    await measure('filter_text_sort', () =>
      call('POST', searchUrl, {
        query: { text: { q: pick(midWords) } },
        filters: { and: [{ type: 'range', scope: { entity: 'metadata', metadata_property: 'length' }, ge: 0, le: 499 }] },
        sort: [{ scope: { entity: 'metadata', metadata_property: 'score' }, order: 'desc' }],
      }),
    );
    // Before the vector write below, whose new records make the column copy reload.
    const meUrl = `/me/datasets/${dataset.id}/records/search?limit=50&include=responses&include=suggestions`;
    await measure('me_pending', () =>
      call('POST', meUrl, {
        filters: { and: [{ type: 'terms', scope: { entity: 'response', property: 'status' }, values: ['pending'] }] },
      }, annotatorKeys[0]),
    );
    t0 = performance.now();
    await call('POST', searchUrl, { query: { vector: { name: 'emb', record_id: pick(vectorRecordIds) } } });
    withLoad('similarity_first_query_ms', (performance.now() - t0).toFixed(0));
    await measure('similarity', () => call('POST', searchUrl, { query: { vector: { name: 'emb', record_id: pick(vectorRecordIds), order: 'most_similar' } } }));
    // A vector write, then a similarity query: what the cache refresh costs.
    await call('PUT', `/datasets/${dataset.id}/records/bulk`, batchBody(0, 20, 'extra'), OWNER.apiKey, false);
    t0 = performance.now();
    await call('POST', searchUrl, { query: { vector: { name: 'emb', record_id: pick(vectorRecordIds) } } });
    withLoad('similarity_after_vector_write_ms', (performance.now() - t0).toFixed(0));
    t0 = performance.now();
    await call('GET', '/me', undefined, annotatorKeys[0]);
    await call('GET', `/me/datasets/${dataset.id}/progress`, undefined, annotatorKeys[0]).catch(() => undefined);
    withLoad('me_and_progress_ms', (performance.now() - t0).toFixed(1));

    await new Promise((r) => setTimeout(r, 5_000));
    withLoad('rss_mib_5s_after_searches', server.memory().rssMiB.toFixed(0));
    // At rest: the search and indexing threads have stopped (30 s idle each).
    await new Promise((r) => setTimeout(r, REST_SECONDS * 1000));
    const rest = server.memory();
    withLoad('rss_mib_at_rest', rest.rssMiB.toFixed(0));
    print('rss_mib_at_rest_anon_file_shmem', [rest.anonMiB, rest.fileMiB, rest.shmemMiB].map((m) => m.toFixed(0)).join(' / '));

    // ---- 3. submit, open loop ----
    const responseBody = JSON.stringify({ status: 'submitted', values: { quality: { value: 'good' } } });
    // Warm-up, as each search kind gets: the submit code has never run in this server process, and
    // until V8 has compiled it the first seconds of 200 annotators queued (a cold run: ~0.5 s for
    // 4 s). One annotator submits on records the measured phase does not use; every annotator's
    // first response and first connection are still in the figures.
    const warmupRecords = ids.slice(ANNOTATORS * SUBMIT_SECONDS, ANNOTATORS * SUBMIT_SECONDS + SUBMIT_WARMUP);
    for (let i = 0; i < warmupRecords.length; i += 4) {
      await Promise.all(warmupRecords.slice(i, i + 4).map((id) => call('POST', `/records/${id}/responses`, responseBody, annotatorKeys[0], false)));
    }
    print('submit_warmup_requests', warmupRecords.length);
    await new Promise((r) => setTimeout(r, 3_000));
    const latencies: number[] = [];
    const lateStarts: number[] = [];
    const windowMax: number[] = [];
    const secondMax: number[] = [];
    // The first seconds pay for 200 new connections and first responses at once; reported apart too.
    const WARM_MS = 10_000;
    const steadyLatencies: number[] = [];
    let errors = 0;
    let loadRss = 0;
    rssSampler = setInterval(() => (loadRss = Math.max(loadRss, server.memory().rssMiB)), 250);
    const submitCpu0 = server.cpuSeconds();
    const submitStart = performance.now() + 200;
    const inflight: Promise<void>[] = [];
    await new Promise<void>((resolveAll) => {
      let scheduled = 0;
      const total = ANNOTATORS * SUBMIT_SECONDS;
      for (let a = 0; a < ANNOTATORS; a++) {
        const phase = (a / ANNOTATORS) * 1000;
        for (let k = 0; k < SUBMIT_SECONDS; k++) {
          const due = submitStart + phase + k * 1000;
          const recordId = ids[a * SUBMIT_SECONDS + k];
          setTimeout(() => {
            const sent = performance.now();
            lateStarts.push(sent - due);
            inflight.push(
              call('POST', `/records/${recordId}/responses`, responseBody, annotatorKeys[a], false)
                .then(() => {
                  const latency = performance.now() - due;
                  latencies.push(latency);
                  if (due - submitStart >= WARM_MS) steadyLatencies.push(latency);
                  const window = Math.floor((due - submitStart) / 10_000);
                  windowMax[window] = Math.max(windowMax[window] ?? 0, latency);
                  if (due - submitStart < WARM_MS) secondMax[Math.floor((due - submitStart) / 1000)] = Math.max(secondMax[Math.floor((due - submitStart) / 1000)] ?? 0, latency);
                })
                .catch((error) => {
                  errors += 1;
                  if (errors <= 3) console.error(String(error));
                }),
            );
            if (++scheduled === total) resolveAll();
          }, Math.max(0, due - performance.now()));
        }
      }
    });
    await Promise.all(inflight);
    const submitSeconds = (performance.now() - submitStart) / 1000;
    clearInterval(rssSampler);
    latencies.sort((a, b) => a - b);
    lateStarts.sort((a, b) => a - b);
    print('submit_annotators', ANNOTATORS);
    print('submit_requests', latencies.length + errors);
    print('submit_errors', errors);
    withLoad('submit_per_s', (latencies.length / submitSeconds).toFixed(0));
    withLoad('submit_p50_ms', percentile(latencies, 50).toFixed(1));
    withLoad('submit_p95_ms', percentile(latencies, 95).toFixed(1));
    withLoad('submit_p99_ms', percentile(latencies, 99).toFixed(1));
    print('submit_max_ms', latencies[latencies.length - 1]?.toFixed(1) ?? 'n/a');
    steadyLatencies.sort((a, b) => a - b);
    withLoad('submit_after_first_10s_p50_ms', percentile(steadyLatencies, 50).toFixed(1));
    withLoad('submit_after_first_10s_p99_ms', percentile(steadyLatencies, 99).toFixed(1));
    print('submit_max_ms_per_10s_window', windowMax.map((v) => v.toFixed(0)).join(' '));
    print('submit_max_ms_per_second_of_the_first_10', secondMax.map((v) => v.toFixed(0)).join(' '));
    print('submit_client_send_lag_p99_ms', percentile(lateStarts, 99).toFixed(1));
    print('submit_server_cpu_ms_per_request', (((server.cpuSeconds() - submitCpu0) * 1000) / Math.max(1, latencies.length)).toFixed(2));
    withLoad('rss_mib_under_submit_load', loadRss.toFixed(0));
    print('rss_mib_hwm', server.memory().hwmMiB.toFixed(0));
  } finally {
    if (rssSampler) clearInterval(rssSampler);
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
