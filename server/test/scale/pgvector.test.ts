import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddingFiller } from '../../src/storage/search/embedding-filler.js';
import { findSimilarWithPgvector, setPgvectorMinVectors } from '../../src/storage/search/pgvector.js';
import { TestApi } from '../api-client.js';
import { createWorkspace } from '../fixtures.js';
import { createSearchDataset, upsertRecords } from '../search-fixtures.js';
import { createScratchDatabase, OWNER, startTestServer, type ScratchDatabase, type TestServer } from '../test-server.js';
import { seededRandom } from '../seeded-random.js';

// Watch whether a search went through the HNSW index, without changing what it does.
vi.mock('../../src/storage/search/pgvector.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/storage/search/pgvector.js')>();
  return { ...original, findSimilarWithPgvector: vi.fn(original.findSimilarWithPgvector) };
});

/**
 * Similarity through pgvector's HNSW index (PostgreSQL with the extension installed:
 * scripts/install-pgvector.sh, which `.ci/run` runs). Sets are small here, so the size from which
 * the index serves is lowered; every answer is checked against a brute-force cosine ranking.
 */
const adminUrl = process.env.SCHOLIA_TEST_DATABASE_URL;
const available = adminUrl?.startsWith('postgres') ? await extensionAvailable(adminUrl) : false;

async function extensionAvailable(url: string): Promise<boolean> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return ((await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)).rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

const DIMENSIONS = 16;
const uniform = seededRandom(3);
const random = () => uniform() * 2 - 1;
const randomVector = () => Array.from({ length: DIMENSIONS }, random);
const cosine = (a: number[], b: number[]) => {
  const fa = Float32Array.from(a);
  const dot = fa.reduce((sum, x, i) => sum + x * b[i], 0);
  return dot / Math.hypot(...fa) / Math.hypot(...b);
};

describe.runIf(available)('similarity through pgvector (PostgreSQL with the vector extension)', () => {
  let scratch: ScratchDatabase;
  let server: TestServer;
  let owner: ReturnType<TestApi['as']>;
  let datasetId: string;
  let settingsId: string;
  const idOf = new Map<string, string>();
  const remember = (stored: { id: string; external_id: string }[]) => stored.forEach((record) => idOf.set(record.external_id, record.id));
  const items = Array.from({ length: 1500 }, (_, i) => ({ external_id: `p${i}`, fields: { text: `point ${i}`, context: 'c' }, metadata: { n: i % 10 }, vectors: { big: randomVector() } }));

  beforeAll(async () => {
    scratch = await createScratchDatabase(adminUrl!);
    // Written before pgvector is in use: the next start must fill their embeddings and index them.
    const before = await startTestServer({ env: { SCHOLIA_DATABASE_URL: scratch.url, SCHOLIA_PGVECTOR: 'off' } });
    const api = new TestApi(before.url);
    owner = api.as({ apiKey: OWNER.apiKey });
    const workspace = await createWorkspace(api);
    datasetId = (await createSearchDataset(api, workspace.id)).id;
    const created = await owner.post(`/datasets/${datasetId}/vectors-settings`, { name: 'big', title: 'big', dimensions: DIMENSIONS });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    settingsId = created.body.id;
    remember(await upsertRecords(api, datasetId, items.slice(0, 500)));
    await before.close();

    server = await startTestServer({ env: { SCHOLIA_DATABASE_URL: scratch.url } });
    owner = new TestApi(server.url).as({ apiKey: OWNER.apiKey });
    for (let start = 500; start < items.length; start += 500) remember(await upsertRecords(new TestApi(server.url), datasetId, items.slice(start, start + 500)));
    setPgvectorMinVectors(0);
    await embeddingsFilled();
  });
  afterAll(async () => {
    setPgvectorMinVectors(10_000);
    await server?.close();
    await scratch?.drop();
  });

  async function waitingVectors(): Promise<number> {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      return (await client.query('SELECT count(*)::int AS n FROM vectors WHERE embedding IS NULL')).rows[0].n;
    } finally {
      await client.end();
    }
  }
  /** Vectors written meanwhile wait for their embeddings (as when a server stops before filling them). */
  async function withFillerStopped(step: () => Promise<void>): Promise<void> {
    const { database } = server.app;
    await database.embeddingFiller.close();
    try {
      await step();
    } finally {
      database.embeddingFiller = startEmbeddingFiller(database.db);
    }
  }
  /** The embeddings are filled after the writes, within seconds once the writes pause. */
  async function embeddingsFilled(): Promise<void> {
    await vi.waitFor(async () => expect(await waitingVectors()).toBe(0), { timeout: 60_000, interval: 100 });
  }

  async function similar(body: Record<string, unknown>, limit = 10) {
    vi.mocked(findSimilarWithPgvector).mockClear();
    const res = await owner.post(`/datasets/${datasetId}/records/search?limit=${limit}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const viaIndex = (await vi.mocked(findSimilarWithPgvector).mock.results[0]?.value) !== undefined;
    return { viaIndex, hits: res.body.items.map((item: any) => ({ id: item.record.external_id as string, score: item.query_score as number })) };
  }
  const exactTop = (query: number[], k: number, keep: (i: number) => boolean = () => true, sign = 1) =>
    items
      .map((item, i) => ({ id: item.external_id, i, score: cosine(item.vectors.big, query) }))
      .filter(({ i }) => keep(i))
      .sort((a, b) => sign * (b.score - a.score) || a.i - b.i)
      .slice(0, k);

  it('fills an embedding for every vector, those written before pgvector too, and keeps an HNSW index per vector settings', async () => {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      const indexes = await client.query(`SELECT indexdef FROM pg_indexes WHERE indexname = $1`, [`vectors_hnsw_${settingsId.replace(/-/g, '')}`]);
      expect(indexes.rows[0]?.indexdef).toMatch(/USING hnsw .*vector_cosine_ops/);
    } finally {
      await client.end();
    }
  });

  it('finds the nearest vectors: recall against brute force, exact scores', async () => {
    let found = 0;
    for (let q = 0; q < 20; q++) {
      const query = randomVector();
      const { viaIndex, hits } = await similar({ query: { vector: { name: 'big', value: query } } });
      expect(viaIndex).toBe(true);
      const want = exactTop(query, 10);
      found += hits.filter((hit: { id: string }) => want.some((w) => w.id === hit.id)).length;
      const scoreOf = new Map(items.map((item) => [item.external_id, cosine(item.vectors.big, query)]));
      for (const hit of hits) expect(hit.score).toBeCloseTo((1 + scoreOf.get(hit.id)!) / 2, 5);
      expect(hits.map((hit: { score: number }) => hit.score)).toEqual([...hits.map((hit: { score: number }) => hit.score)].sort((a, b) => b - a));
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.9);
  });

  it('by record: the record itself is left out', async () => {
    const { viaIndex, hits } = await similar({ query: { vector: { name: 'big', record_id: idOf.get('p7') } } }, 5);
    expect(viaIndex).toBe(true);
    expect(hits.map((hit: { id: string }) => hit.id)).toEqual(exactTop(items[7].vectors.big, 6).map((hit) => hit.id).filter((id) => id !== 'p7').slice(0, 5));
  });

  it('a vector written a moment ago is found at once: exactly while it waits for its embedding, then through the index', async () => {
    const query = randomVector();
    let freshId = '';
    await withFillerStopped(async () => {
      [{ id: freshId }] = await upsertRecords(new TestApi(server.url), datasetId, [{ external_id: 'fresh', fields: { text: 'fresh', context: 'c' }, vectors: { big: query } }]);
      expect(await waitingVectors()).toBe(1);
      const pending = await similar({ query: { vector: { name: 'big', value: query } } }, 1);
      expect(pending.viaIndex).toBe(false);
      expect(pending.hits[0].id).toBe('fresh');
    });
    await embeddingsFilled();
    const { viaIndex, hits } = await similar({ query: { vector: { name: 'big', value: query } } }, 1);
    expect(viaIndex).toBe(true);
    expect(hits[0].id).toBe('fresh');
    expect(hits[0].score).toBeCloseTo(1, 5);
    expect((await owner.delete(`/datasets/${datasetId}/records?ids=${freshId}`)).status).toBe(204);
  });

  it('a changed vector waits for its new embedding: meanwhile the search is exact and finds it where it is now', async () => {
    const moved = randomVector();
    items[12].vectors.big = moved;
    await withFillerStopped(async () => {
      await upsertRecords(new TestApi(server.url), datasetId, [{ external_id: 'p12', vectors: { big: moved } }]);
      expect(await waitingVectors()).toBe(1);
      const pending = await similar({ query: { vector: { name: 'big', value: moved } } }, 1);
      expect(pending.viaIndex).toBe(false);
      expect(pending.hits[0].id).toBe('p12');
    });
    await embeddingsFilled();
    const filled = await similar({ query: { vector: { name: 'big', value: moved } } }, 1);
    expect(filled.viaIndex).toBe(true);
    expect(filled.hits[0].id).toBe('p12');
  });

  it('vectors left waiting when the filler stopped are filled when it starts again; searches meanwhile miss none', async () => {
    const late = Array.from({ length: 600 }, (_, i) => ({ external_id: `late${i}`, fields: { text: `late ${i}`, context: 'c' }, vectors: { big: randomVector() } }));
    await withFillerStopped(async () => {
      for (const part of [late.slice(0, 300), late.slice(300)]) remember(await upsertRecords(new TestApi(server.url), datasetId, part));
      expect(await waitingVectors()).toBe(600);
    });
    // Searched while the filler works through them (three batches): each is found, by one path or the other.
    for (const i of [5, 250, 599]) {
      const { hits } = await similar({ query: { vector: { name: 'big', value: late[i].vectors.big } } }, 1);
      expect(hits[0].id).toBe(`late${i}`);
    }
    await embeddingsFilled();
    const filled = await similar({ query: { vector: { name: 'big', value: late[250].vectors.big } } }, 1);
    expect(filled.viaIndex).toBe(true);
    expect(filled.hits[0].id).toBe('late250');
    for (let start = 0; start < late.length; start += 100) {
      const ids = late.slice(start, start + 100).map((item) => idOf.get(item.external_id)).join(',');
      expect((await owner.delete(`/datasets/${datasetId}/records?ids=${ids}`)).status).toBe(204);
    }
  });

  it("a bulk write moves the set's version once, at its commit; filling embeddings leaves it alone", async () => {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    const version = async () => Number((await client.query('SELECT version FROM vector_set_versions WHERE vector_settings_id = $1', [settingsId])).rows[0].version);
    try {
      const before = await version();
      const extra = Array.from({ length: 300 }, (_, i) => ({ external_id: `extra${i}`, fields: { text: `extra ${i}`, context: 'c' }, vectors: { big: randomVector() } }));
      await withFillerStopped(async () => {
        remember(await upsertRecords(new TestApi(server.url), datasetId, extra));
        expect(await version()).toBe(before + 1);
      });
      await embeddingsFilled();
      expect(await version()).toBe(before + 1);
      // The same values again change nothing; one changed value moves it.
      await upsertRecords(new TestApi(server.url), datasetId, extra.slice(0, 2));
      expect(await version()).toBe(before + 1);
      await upsertRecords(new TestApi(server.url), datasetId, [{ ...extra[0], vectors: { big: randomVector() } }]);
      expect(await version()).toBe(before + 2);
      for (let start = 0; start < extra.length; start += 100) {
        const ids = extra.slice(start, start + 100).map((item) => idOf.get(item.external_id)).join(',');
        expect((await owner.delete(`/datasets/${datasetId}/records?ids=${ids}`)).status).toBe(204);
      }
      expect(await version()).toBeGreaterThan(before + 2);
    } finally {
      await client.end();
    }
  });

  it('a vector with components past float32 range neither blocks the filling nor breaks an indexed search', async () => {
    const huge = randomVector();
    huge[0] = 1e300;
    huge[1] = -1e300;
    const neighbour = randomVector();
    await withFillerStopped(async () => {
      remember(
        await upsertRecords(new TestApi(server.url), datasetId, [
          { external_id: 'huge', fields: { text: 'huge', context: 'c' }, vectors: { big: huge } },
          { external_id: 'neighbour', fields: { text: 'neighbour', context: 'c' }, vectors: { big: neighbour } },
        ]),
      );
    });
    await embeddingsFilled();
    const found = await similar({ query: { vector: { name: 'big', value: neighbour } } }, 1);
    expect(found.viaIndex).toBe(true);
    expect(found.hits[0].id).toBe('neighbour');
    const byHuge = await similar({ query: { vector: { name: 'big', value: huge } } }, 1);
    expect(byHuge.viaIndex).toBe(true);
    const ids = ['huge', 'neighbour'].map((id) => idOf.get(id)).join(',');
    expect((await owner.delete(`/datasets/${datasetId}/records?ids=${ids}`)).status).toBe(204);
  });

  it('least similar and filtered searches stay exact (the in-memory scan)', async () => {
    const query = randomVector();
    const least = await similar({ query: { vector: { name: 'big', value: query, order: 'least_similar' } } });
    expect(least.viaIndex).toBe(false);
    expect(least.hits.map((hit: { id: string }) => hit.id)).toEqual(exactTop(query, 10, () => true, -1).map((hit) => hit.id));
    const filtered = await similar({
      query: { vector: { name: 'big', value: query } },
      filters: { and: [{ type: 'range', scope: { entity: 'metadata', metadata_property: 'n' }, ge: 2, le: 3 }] },
    });
    expect(filtered.viaIndex).toBe(false);
    expect(filtered.hits.map((hit: { id: string }) => hit.id)).toEqual(exactTop(query, 10, (i) => i % 10 === 2 || i % 10 === 3).map((hit) => hit.id));
  });

  it('a vector changed by a process without pgvector loses its stale embedding and gets its new one', async () => {
    const moved = randomVector();
    const off = await startTestServer({ env: { SCHOLIA_DATABASE_URL: scratch.url, SCHOLIA_PGVECTOR: 'off' } });
    try {
      await upsertRecords(new TestApi(off.url), datasetId, [{ external_id: 'p11', vectors: { big: moved } }]);
    } finally {
      await off.close();
    }
    const embeddingOf = async () => {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        const { rows } = await client.query('SELECT embedding::text AS e FROM vectors WHERE record_id = $1 AND vector_settings_id = $2', [idOf.get('p11'), settingsId]);
        return rows[0].e as string | null;
      } finally {
        await client.end();
      }
    };
    await vi.waitFor(async () => expect(await embeddingOf()).not.toBeNull(), { timeout: 60_000, interval: 100 });
    const filled = JSON.parse((await embeddingOf())!) as number[];
    filled.forEach((value, i) => expect(value).toBeCloseTo(moved[i], 5));
    const { viaIndex, hits } = await similar({ query: { vector: { name: 'big', value: moved } } }, 1);
    expect(viaIndex).toBe(true);
    expect(hits[0].id).toBe('p11');
  });

  it('two server processes starting at once on a new database both start: one owner, pgvector set up once', async () => {
    const fresh = await createScratchDatabase(adminUrl!);
    try {
      const both = await Promise.all([0, 1].map(() => startTestServer({ env: { SCHOLIA_DATABASE_URL: fresh.url } })));
      for (const started of both) await started.close();
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: fresh.url });
      await client.connect();
      try {
        const column = await client.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'vectors' AND column_name = 'embedding'`);
        expect(column.rowCount).toBe(1);
        expect((await client.query(`SELECT username FROM users`)).rows).toEqual([{ username: OWNER.username }]);
      } finally {
        await client.end();
      }
    } finally {
      await fresh.drop();
    }
  });

  it('deleting the vector settings drops its index', async () => {
    expect((await owner.delete(`/vectors-settings/${settingsId}`)).status).toBe(200);
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      const indexes = await client.query(`SELECT 1 FROM pg_indexes WHERE indexname = $1`, [`vectors_hnsw_${settingsId.replace(/-/g, '')}`]);
      expect(indexes.rowCount).toBe(0);
    } finally {
      await client.end();
    }
  });
});
