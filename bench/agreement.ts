/**
 * Agreement bench: the real server in a child process (SQLite in a temp dir by default,
 * PostgreSQL when SCHOLIA_TEST_DATABASE_URL / BENCH_DATABASE_URL names one). Seeds
 * BENCH_AGREEMENT_RECORDS records (default 100,000) through PUT /datasets/{id}/records/bulk, each
 * with submitted responses of three annotators to a label, a multi-label and a rating question
 * (the SDK's way of logging answers), then times GET /datasets/{id}/agreement: BENCH_RUNS (5) runs
 * after one warm-up, unfiltered and with a metadata filter, wall-clock and server CPU. The warm-up
 * leaves the answers in the server's memory; `agreement_after_write` times requests that each
 * follow a response change, which the server writes into the answers it keeps;
 * `agreement_after_bulk_write` those that follow a bulk record write, after which the answers are read again.
 *
 *   npx tsx bench/agreement.ts
 *   node scripts/with-postgres.mjs npx tsx bench/agreement.ts
 */
import { performance } from 'node:perf_hooks';
import { httpClient, load1, percentile, random, startServerProcess } from './lib/server-process.js';

const RECORDS = Number(process.env.BENCH_AGREEMENT_RECORDS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BATCH = 500;
const IN_FLIGHT = 2;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.SCHOLIA_TEST_DATABASE_URL;

const print = (name: string, value: string | number) => console.log(`${name}: ${value} (load ${load1()})`);
const LABELS = ['good', 'bad', 'neutral'];
const TOPICS = ['sports', 'politics', 'tech', 'science'];

/** An annotator's answer: agrees with the record's "true" answer most of the time. */
function answerFor(truth: { label: string; rating: number; topics: string[] }) {
  const noisy = random() < 0.25;
  return {
    label: { value: noisy ? LABELS[Math.floor(random() * LABELS.length)] : truth.label },
    rating: { value: Math.min(5, Math.max(1, truth.rating + (noisy ? (random() < 0.5 ? -1 : 1) : 0))) },
    topics: { value: noisy ? [TOPICS[Math.floor(random() * TOPICS.length)]] : truth.topics },
  };
}

async function main() {
  const dialect = DATABASE_URL?.startsWith('postgres') ? 'postgres' : 'sqlite';
  const server = await startServerProcess({ databaseUrl: dialect === 'postgres' ? DATABASE_URL : undefined });
  const call = httpClient(server.base);
  print('database', dialect);
  print('records', RECORDS);
  try {
    const workspace = await call('POST', '/workspaces', { name: 'agreement' });
    const dataset = await call('POST', '/datasets', { name: 'agreement', workspace_id: workspace.id, distribution: { strategy: 'overlap', min_submitted: 3 } });
    await call('POST', `/datasets/${dataset.id}/fields`, { name: 'text', title: 'text', required: true, settings: { type: 'text' } });
    const options = (values: string[]) => values.map((value) => ({ value, text: value }));
    await call('POST', `/datasets/${dataset.id}/questions`, { name: 'label', title: 'Label', required: true, settings: { type: 'label_selection', options: options(LABELS) } });
    await call('POST', `/datasets/${dataset.id}/questions`, { name: 'topics', title: 'Topics', required: false, settings: { type: 'multi_label_selection', options: options(TOPICS) } });
    await call('POST', `/datasets/${dataset.id}/questions`, {
      name: 'rating', title: 'Rating', required: false, settings: { type: 'rating', options: [1, 2, 3, 4, 5].map((value) => ({ value })) },
    });
    await call('POST', `/datasets/${dataset.id}/metadata-properties`, { name: 'split', title: 'split', settings: { type: 'terms', values: ['train', 'test'] } });
    await call('PUT', `/datasets/${dataset.id}/publish`);
    const annotators = await Promise.all(
      [1, 2, 3].map((n) => call('POST', '/users', { username: `annotator-${n}`, first_name: `A${n}`, role: 'annotator', password: 'annotator-password' })),
    );

    const seedStart = performance.now();
    let next = 0;
    async function worker() {
      while (next < RECORDS) {
        const start = next;
        next += BATCH;
        const items = [];
        for (let i = start; i < Math.min(start + BATCH, RECORDS); i++) {
          const truth = { label: LABELS[i % 3], rating: 1 + (i % 5), topics: [TOPICS[i % 4]] };
          items.push({
            fields: { text: `record ${i}` },
            metadata: { split: i % 10 === 0 ? 'test' : 'train' },
            responses: annotators.map((user) => ({ user_id: user.id, status: 'submitted', values: answerFor(truth) })),
          });
        }
        await call('PUT', `/datasets/${dataset.id}/records/bulk`, { items });
      }
    }
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    print('seed_seconds', ((performance.now() - seedStart) / 1000).toFixed(1));

    const testSplit = encodeURIComponent(JSON.stringify({ and: [{ type: 'terms', scope: { entity: 'metadata', metadata_property: 'split' }, values: ['test'] }] }));
    const agreementUrl = (query: string) => `/datasets/${dataset.id}/agreement${query}`;
    /** Times RUNS requests, each after `before` (not timed). */
    async function time(name: string, query: string, before: (run: number) => Promise<void>) {
      const times: number[] = [];
      let cpu = 0;
      let last: { questions: { question: { name: string }; records: number }[] } | undefined;
      for (let run = 0; run < RUNS; run++) {
        await before(run);
        const cpuBefore = server.cpuSeconds();
        const start = performance.now();
        last = await call('GET', agreementUrl(query));
        times.push(performance.now() - start);
        cpu += server.cpuSeconds() - cpuBefore;
      }
      times.sort((a, b) => a - b);
      print(`${name}_records_label`, last!.questions.find((q) => q.question.name === 'label')!.records);
      print(`${name}_ms_p50`, percentile(times, 50).toFixed(0));
      print(`${name}_ms_max`, times[times.length - 1].toFixed(0));
      print(`${name}_server_cpu_ms_mean`, ((cpu / RUNS) * 1000).toFixed(0));
    }
    for (const [name, query] of [
      ['agreement', ''],
      ['agreement_filtered_10pct', `?filters=${testSplit}`],
    ] as const) {
      await call('GET', agreementUrl(query));
      await time(name, query, async () => {});
    }
    // One annotator's answer to the first record, changed before each request.
    const [first] = (await call('GET', `/datasets/${dataset.id}/records?include=responses&limit=1`)).items;
    const response = first.responses[0];
    await time('agreement_after_write', '', async (run) => {
      const values = { ...response.values, rating: { value: 1 + ((response.values.rating.value + run) % 5) } };
      await call('PUT', `/responses/${response.id}`, { status: 'submitted', values });
    });
    // A bulk write of one record's answers: the kept answers cannot follow it, so each request reads them all again.
    await time('agreement_after_bulk_write', '', async (run) => {
      const values = { ...response.values, rating: { value: 1 + ((response.values.rating.value + run + 1) % 5) } };
      await call('PUT', `/datasets/${dataset.id}/records/bulk`, {
        items: [{ id: first.id, responses: [{ user_id: response.user_id, status: 'submitted', values }] }],
      });
    });
    const result = await call('GET', `/datasets/${dataset.id}/agreement`);
    for (const q of result.questions) print(`alpha_${q.question.name}`, q.alpha?.toFixed(3) ?? 'null');
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
