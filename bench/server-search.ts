/**
 * Search benchmark: boots the real server (SQLite in a temp dir, free port), creates the dataset
 * settings through the API (so the metadata indexes and the FTS table are the real ones), then
 * writes 100,000 records straight through the storage layer (two text fields, three metadata
 * values, one suggestion, one 384-dim vector, responses by one annotator on 10%) and measures
 * search latency over HTTP, one request at a time:
 *  - filter-only: metadata range (~10%), admin route; and the annotator's `/me` pending view;
 *  - text: one mid-frequency term (a different term each run);
 *  - filter + text + sort: a term, a metadata range and a metadata sort;
 *  - similarity: 50 most similar records to a random record.
 *
 * Run from the repo root: `npx tsx bench/server-search.ts` (env BENCH_RECORDS, BENCH_RUNS; BENCH_KEEP=1
 * keeps the database directory for query-plan work).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import { buildApp } from '../server/src/app.js';
import { ensureFirstOwner } from '../server/src/bootstrap/first-owner.js';
import { readConfig } from '../server/src/config.js';
import { nowTimestamp } from '../server/src/lib/time.js';
import { openDatabase } from '../server/src/storage/open-database.js';
import { indexRecordTexts } from '../server/src/storage/search/text-index.js';
import { encodeVector } from '../server/src/storage/vector-codec.js';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const WARMUP = 5;
const DIMENSIONS = 384;
const CLUSTERS = 64;
const CHUNK = 2_000;
const OWNER = { username: 'bench-owner', password: 'bench-password-1', apiKey: 'bench.owner.apikey' };

let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);

// A Zipf-distributed vocabulary of pronounceable words (limits.md used Zipf English-like text).
const SYLLABLES = 'ka ri to mu sen la vo pi de ran tu el mo ns ab or qui fe lin da'.split(' ');
const VOCABULARY = Array.from({ length: 6_000 }, (_, i) => {
  let word = '';
  let n = i + 7;
  do {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return word;
});
const zipfWeights = VOCABULARY.map((_, rank) => 1 / (rank + 1) ** 1.07);
const zipfTotal = zipfWeights.reduce((a, b) => a + b, 0);
const zipfCumulative = (() => {
  let sum = 0;
  return zipfWeights.map((w) => (sum += w / zipfTotal));
})();
function zipfWord(): string {
  const r = random();
  let lo = 0;
  let hi = zipfCumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (zipfCumulative[mid] < r) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo];
}
const sentence = (words: number) => Array.from({ length: words }, zipfWord).join(' ');

const centroids = Array.from({ length: CLUSTERS }, () => Array.from({ length: DIMENSIONS }, () => random() * 2 - 1));
function clusteredVector(): number[] {
  const c = centroids[Math.floor(random() * CLUSTERS)];
  const v = c.map((x) => x + (random() - 0.5) * 0.8);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-search-bench-'));
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
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url} -> ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };

  try {
    const workspace = await call('POST', '/workspaces', { name: 'bench' });
    const annotator = await call('POST', '/users', { username: 'bench-annotator', first_name: 'A', role: 'annotator', password: 'bench-password-2' });
    await call('POST', `/workspaces/${workspace.id}/users`, { user_id: annotator.id });
    const dataset = await call('POST', '/datasets', { name: 'search-bench', workspace_id: workspace.id });
    for (const field of ['prompt', 'response']) {
      await call('POST', `/datasets/${dataset.id}/fields`, { name: field, title: field, required: true, settings: { type: 'text' } });
    }
    const labels = ['good', 'bad', 'neutral'];
    const question = await call('POST', `/datasets/${dataset.id}/questions`, {
      name: 'quality', title: 'Quality', required: true, settings: { type: 'label_selection', options: labels.map((value) => ({ value, text: value })) },
    });
    for (const m of [
      { name: 'category', settings: { type: 'terms', values: null } },
      { name: 'length', settings: { type: 'integer', min: null, max: null } },
      { name: 'score', settings: { type: 'float', min: null, max: null } },
    ]) {
      await call('POST', `/datasets/${dataset.id}/metadata-properties`, { ...m, title: m.name });
    }
    const vectorSettings = await call('POST', `/datasets/${dataset.id}/vectors-settings`, { name: 'emb', title: 'emb', dimensions: DIMENSIONS });
    await call('PUT', `/datasets/${dataset.id}/publish`);

    // ---- 100k records through the storage layer ----
    const { db } = database;
    const fields = [
      { name: 'prompt', settings: { type: 'text' } },
      { name: 'response', settings: { type: 'text' } },
    ];
    const categories = Array.from({ length: 20 }, (_, i) => `cat-${i}`);
    const agents = ['gpt-4', 'llama', 'mistral'];
    const recordIds: string[] = [];
    const buildStart = performance.now();
    for (let start = 0; start < RECORDS; start += CHUNK) {
      const count = Math.min(CHUNK, RECORDS - start);
      await db.transaction().execute(async (trx) => {
        const rows = Array.from({ length: count }, (_, i) => {
          const now = nowTimestamp();
          return {
            id: randomUUID(),
            dataset_id: dataset.id,
            external_id: `ext-${start + i}`,
            fields: JSON.stringify({ prompt: sentence(25), response: sentence(45) }),
            metadata: JSON.stringify({
              category: categories[Math.floor(random() * categories.length)],
              length: Math.floor(random() * 1000),
              score: Math.round(random() * 1e4) / 1e4,
            }),
            status: 'pending' as const,
            submitted_count: 0,
            inserted_at: now,
            updated_at: now,
          };
        });
        const stored: { rid: number; id: string; fields: string }[] = [];
        for (let i = 0; i < rows.length; i += 500) {
          stored.push(...(await trx.insertInto('records').values(rows.slice(i, i + 500)).returning(['rid', 'id', 'fields']).execute()));
        }
        await indexRecordTexts(trx, 'sqlite', dataset.id, fields, stored.map((r) => ({ rid: Number(r.rid), fields: JSON.parse(r.fields) })), { fresh: true });
        const now = nowTimestamp();
        const suggestions = stored.map((r) => ({
          id: randomUUID(), record_id: r.id, dataset_id: dataset.id, question_id: question.id, type: 'model' as const,
          value: JSON.stringify(labels[Math.floor(random() * 3)]), agent: agents[Math.floor(random() * 3)],
          score: JSON.stringify(Math.round(random() * 100) / 100), inserted_at: now, updated_at: now,
        }));
        for (let i = 0; i < suggestions.length; i += 500) await trx.insertInto('suggestions').values(suggestions.slice(i, i + 500)).execute();
        const vectors = stored.map((r) => ({
          record_id: r.id, dataset_id: dataset.id, vector_settings_id: vectorSettings.id, value: encodeVector(clusteredVector()),
          inserted_at: now, updated_at: now,
        }));
        for (let i = 0; i < vectors.length; i += 500) await trx.insertInto('vectors').values(vectors.slice(i, i + 500)).execute();
        const responded = stored.filter(() => random() < 0.1);
        if (responded.length > 0) {
          await trx
            .insertInto('responses')
            .values(responded.map((r) => ({
              id: randomUUID(), record_id: r.id, dataset_id: dataset.id, user_id: annotator.id, status: 'submitted' as const,
              values: JSON.stringify({ quality: { value: 'good' } }), inserted_at: now, updated_at: now,
            })))
            .execute();
          await trx.updateTable('records').set({ status: 'completed', submitted_count: 1 }).where('id', 'in', responded.map((r) => r.id)).execute();
        }
        recordIds.push(...stored.map((r) => r.id));
      });
    }
    console.log(`records: ${RECORDS} (built in ${((performance.now() - buildStart) / 1000).toFixed(1)} s)`);
    // The build leaves a large heap behind; collect it now so its GC pauses do not land in the timings.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    gc();
    gc();

    // ---- measurements ----
    const searchUrl = `/datasets/${dataset.id}/records/search?limit=50`;
    const meUrl = `/me/datasets/${dataset.id}/records/search?limit=50&include=responses&include=suggestions`;
    const midWords = VOCABULARY.slice(60, 600);
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];

    async function measure(name: string, request: (run: number) => Promise<{ total: number }>) {
      const times: number[] = [];
      let totals = 0;
      for (let run = 0; run < WARMUP + RUNS; run++) {
        const t0 = performance.now();
        const result = await request(run);
        const elapsed = performance.now() - t0;
        if (run >= WARMUP) {
          times.push(elapsed);
          totals += result.total;
        }
      }
      times.sort((a, b) => a - b);
      console.log(`search_${name}_p50_ms: ${percentile(times, 50).toFixed(1)}`);
      console.log(`search_${name}_p95_ms: ${percentile(times, 95).toFixed(1)}`);
      console.log(`search_${name}_mean_total: ${Math.round(totals / RUNS)}`);
    }

    const metadataRange = () => {
      const ge = Math.floor(random() * 900);
      return { type: 'range', scope: { entity: 'metadata', metadata_property: 'length' }, ge, le: ge + 99 };
    };

    await measure('filter', () => call('POST', searchUrl, { filters: { and: [metadataRange()] } }));
    await measure('filter_me_pending', () =>
      call(
        'POST',
        `${meUrl}&offset=${Math.floor(random() * 500)}`,
        {
          filters: {
            and: [
              { type: 'terms', scope: { entity: 'response', property: 'status' }, values: ['pending'] },
              { type: 'terms', scope: { entity: 'record', property: 'status' }, values: ['pending'] },
            ],
          },
        },
        annotator.api_key,
      ),
    );
    await measure('text', () => call('POST', searchUrl, { query: { text: { q: pick(midWords) } } }));
    await measure('text_two_terms', () => call('POST', searchUrl, { query: { text: { q: `${pick(VOCABULARY.slice(10, 100))} ${pick(midWords)}` } } }));
    await measure('filter_text_sort', () =>
      call('POST', searchUrl, {
        query: { text: { q: pick(midWords) } },
        filters: { and: [{ type: 'range', scope: { entity: 'metadata', metadata_property: 'length' }, ge: 0, le: 499 }] },
        sort: [{ scope: { entity: 'metadata', metadata_property: 'score' }, order: 'desc' }],
      }),
    );
    // first similarity call loads the vector cache; report it separately
    const loadStart = performance.now();
    await call('POST', searchUrl, { query: { vector: { name: 'emb', record_id: pick(recordIds) } } });
    console.log(`similarity_cache_load_ms: ${(performance.now() - loadStart).toFixed(0)}`);
    await measure('similarity', () => call('POST', searchUrl, { query: { vector: { name: 'emb', record_id: pick(recordIds), order: 'most_similar' } } }));
    await measure('similarity_filtered', () =>
      call('POST', searchUrl, { query: { vector: { name: 'emb', record_id: pick(recordIds) } }, filters: { and: [metadataRange()] } }),
    );
    const rss = process.memoryUsage().rss / 1024 / 1024;
    console.log(`rss_mib: ${rss.toFixed(0)}`);
  } finally {
    await app.close();
    if (process.env.BENCH_KEEP) console.log(`kept: ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
