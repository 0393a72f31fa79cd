import { sql, type Kysely } from 'kysely';
import type { Tables } from '../tables.js';
import { DOT_KERNEL_WASM_BASE64 } from './dot-kernel.wasm.js';

/**
 * Exact cosine similarity over one vector settings' vectors (contract §4.2), from an in-memory
 * copy of the vectors, unit-normalised and zero-padded in WebAssembly memory so the SIMD kernel
 * (dot-kernel.wat) can scan them: limits.md §3 measured 20 ms for 100k×384 this way against
 * ~90 ms for plain JS and ~100 ms for reading BLOBs from SQLite on every query.
 *
 * The copy is reloaded when `vector_set_versions.version` (bumped by triggers on every vector
 * write, migration 202611221300) differs from the one it was built at, so no write path has to
 * know about this cache.
 */

/** The few WebAssembly globals used here (the Node lib types do not declare the namespace). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface KernelExports {
  memory: WasmMemory;
  scores(vectors: number, count: number, stride: number, query: number, out: number): void;
}

const kernelModule = new wasm.Module(Buffer.from(DOT_KERNEL_WASM_BASE64, 'base64'));

/** Upper bound on cached floats (4 bytes each) over all vector sets; least recently used go first. */
const CACHE_BUDGET_FLOATS = 160 * 1024 * 1024;

interface VectorSet {
  version: number;
  dimensions: number;
  /** Row width in floats: dimensions rounded up to a multiple of 16 (the kernel's step). */
  stride: number;
  count: number;
  /** position → record rid */
  rids: Float64Array;
  /** record rid → position */
  positions: Map<number, number>;
  kernel: KernelExports;
  queryOffset: number;
  outOffset: number;
  vectorsOffset: number;
  floats: number;
  lastUsed: number;
}

const cache = new Map<string, VectorSet>();
const loading = new Map<string, Promise<VectorSet>>();

export interface SimilarityOptions {
  /** How many best hits to return (≤ 1000 in practice). */
  limit: number;
  /** Score against the negated query (`least_similar`). */
  negate: boolean;
  /** Record rid never returned (the query record). */
  excludeRid?: number;
  /** Only these rids may be returned (text/filter restriction); undefined = all. */
  candidateRids?: ArrayLike<number>;
}

export interface SimilarityHit {
  rid: number;
  /** Cosine similarity with the (possibly negated) query, in [-1, 1]. */
  cosine: number;
}

/** The best `limit` records by cosine similarity to `query`, best first. */
export async function findSimilarRecords(
  db: Kysely<Tables>,
  vectorSettings: { id: string; dimensions: number },
  query: ArrayLike<number>,
  options: SimilarityOptions,
): Promise<SimilarityHit[]> {
  const set = await currentVectorSet(db, vectorSettings);
  if (set.count === 0 || options.limit <= 0) return [];
  writeQuery(set, query, options.negate);

  const out = new Float32Array(set.kernel.memory.buffer, set.outOffset, set.count);
  const excluded = options.excludeRid === undefined ? -1 : (set.positions.get(options.excludeRid) ?? -1);
  const top = new TopK(options.limit, set.rids);
  if (options.candidateRids === undefined) {
    set.kernel.scores(set.vectorsOffset, set.count, set.stride, set.queryOffset, set.outOffset);
    for (let position = 0; position < set.count; position++) {
      if (position !== excluded) top.offer(out[position], position);
    }
  } else {
    // Score only the candidates, one kernel call each: rows are contiguous, so a row's address
    // is enough. Cheaper than a full scan when filters are selective, same cost otherwise.
    const rowBytes = set.stride * 4;
    const candidates = options.candidateRids;
    for (let i = 0; i < candidates.length; i++) {
      const position = set.positions.get(candidates[i]);
      if (position === undefined || position === excluded) continue;
      set.kernel.scores(set.vectorsOffset + position * rowBytes, 1, set.stride, set.queryOffset, set.outOffset + position * 4);
      top.offer(out[position], position);
    }
  }
  return top.sorted().map(({ position, score }) => ({ rid: set.rids[position], cosine: score }));
}

/** Drops every cached vector set (tests; a dataset deletion needs nothing: versions change). */
export function clearVectorCache(): void {
  cache.clear();
}

async function currentVectorSet(db: Kysely<Tables>, settings: { id: string; dimensions: number }): Promise<VectorSet> {
  const version = await readVersion(db, settings.id);
  const cached = cache.get(settings.id);
  if (cached && cached.version === version && cached.dimensions === settings.dimensions) {
    cached.lastUsed = performance.now();
    return cached;
  }
  const key = `${settings.id}:${version}:${settings.dimensions}`;
  let pending = loading.get(key);
  if (!pending) {
    pending = loadVectorSet(db, settings, version).finally(() => loading.delete(key));
    loading.set(key, pending);
  }
  const set = await pending;
  cache.set(settings.id, set);
  evictOverBudget(settings.id);
  return set;
}

async function readVersion(db: Kysely<Tables>, vectorSettingsId: string): Promise<number> {
  const { rows } = await sql<{ version: number }>`
    SELECT version FROM vector_set_versions WHERE vector_settings_id = ${vectorSettingsId}`.execute(db);
  return rows[0]?.version ?? 0;
}

/** Rows read per page while loading a set: bounds the memory a load holds besides the set itself. */
const LOAD_PAGE_ROWS = 2048;

async function loadVectorSet(db: Kysely<Tables>, settings: { id: string; dimensions: number }, version: number): Promise<VectorSet> {
  // Read the version first, rows second: a write in between leaves the copy newer than its
  // version, and the next search reloads it. Never the other way round.
  const dimensions = settings.dimensions;
  const stride = Math.max(16, Math.ceil(dimensions / 16) * 16);
  const expected = await countVectors(db, settings.id);
  const instance = new wasm.Instance(kernelModule, {});
  const exports = instance.exports as unknown as { scores: KernelExports['scores']; memory: WasmMemory };
  const kernel: KernelExports = { memory: exports.memory, scores: exports.scores };
  // Layout: the query, the vectors, then the scores; the vectors area can still grow while
  // loading (rows written after the count), so the scores go after it once the count is known.
  const queryOffset = 0;
  const vectorsOffset = align(stride * 4, 64);
  let capacity = expected;
  ensureMemory(kernel, vectorsOffset + capacity * stride * 4);

  let rids = new Float64Array(capacity);
  const positions = new Map<number, number>();
  let count = 0;
  let after = '';
  for (;;) {
    const page = await db
      .selectFrom('vectors')
      .innerJoin('records', 'records.id', 'vectors.record_id')
      .select(['vectors.record_id', 'records.rid', 'vectors.value'])
      .where('vectors.vector_settings_id', '=', settings.id)
      .where('vectors.record_id', '>', after)
      .orderBy('vectors.record_id')
      .limit(LOAD_PAGE_ROWS)
      .execute();
    if (page.length === 0) break;
    if (count + page.length > capacity) {
      capacity = count + page.length + LOAD_PAGE_ROWS;
      ensureMemory(kernel, vectorsOffset + capacity * stride * 4);
      const grown = new Float64Array(capacity);
      grown.set(rids);
      rids = grown;
    }
    const bytesView = new Uint8Array(kernel.memory.buffer);
    const floatsView = new Float32Array(kernel.memory.buffer);
    for (const row of page) {
      const start = vectorsOffset + count * stride * 4;
      const blob = row.value;
      bytesView.set(blob.byteLength > dimensions * 4 ? blob.subarray(0, dimensions * 4) : blob, start);
      normalize(floatsView, start / 4, dimensions);
      rids[count] = Number(row.rid);
      positions.set(Number(row.rid), count);
      count += 1;
    }
    after = page[page.length - 1].record_id;
    if (page.length < LOAD_PAGE_ROWS) break;
  }
  const outOffset = align(vectorsOffset + count * stride * 4, 64);
  ensureMemory(kernel, outOffset + count * 4);
  return {
    version,
    dimensions,
    stride,
    count,
    rids: rids.subarray(0, count),
    positions,
    kernel,
    queryOffset,
    outOffset,
    vectorsOffset,
    floats: count * stride,
    lastUsed: performance.now(),
  };
}

async function countVectors(db: Kysely<Tables>, vectorSettingsId: string): Promise<number> {
  const row = await db
    .selectFrom('vectors')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('vector_settings_id', '=', vectorSettingsId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The kernel exports its own memory: grow it to hold `bytes` instead of importing one. */
function ensureMemory(kernel: KernelExports, bytes: number): void {
  const pages = Math.ceil(bytes / 65536) - kernel.memory.buffer.byteLength / 65536;
  if (pages > 0) kernel.memory.grow(pages);
}

function writeQuery(set: VectorSet, query: ArrayLike<number>, negate: boolean): void {
  const view = new Float32Array(set.kernel.memory.buffer, set.queryOffset, set.stride);
  view.fill(0);
  const n = Math.min(query.length, set.dimensions);
  for (let i = 0; i < n; i++) view[i] = negate ? -query[i] : query[i];
  normalize(view, 0, n);
}

function normalize(floats: Float32Array, start: number, length: number): void {
  let sum = 0;
  for (let i = start; i < start + length; i++) sum += floats[i] * floats[i];
  if (sum === 0) return; // a zero vector has cosine 0 with everything
  const scale = 1 / Math.sqrt(sum);
  for (let i = start; i < start + length; i++) floats[i] *= scale;
}

function evictOverBudget(keep: string): void {
  let total = 0;
  for (const set of cache.values()) total += set.floats;
  const byAge = [...cache.entries()].filter(([id]) => id !== keep).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
  for (const [id, set] of byAge) {
    if (total <= CACHE_BUDGET_FLOATS) break;
    cache.delete(id);
    total -= set.floats;
  }
}

const align = (value: number, to: number) => Math.ceil(value / to) * to;

/** Keeps the k best (score, position) pairs in a min-heap; ties keep the earlier record (lower rid). */
class TopK {
  private readonly scores: Float64Array;
  private readonly positions: Int32Array;
  private size = 0;

  constructor(
    private readonly k: number,
    private readonly ridOf: Float64Array,
  ) {
    this.scores = new Float64Array(k);
    this.positions = new Int32Array(k);
  }

  offer(score: number, position: number): void {
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(score, position, this.scores[parent], this.positions[parent])) break;
        this.scores[i] = this.scores[parent];
        this.positions[i] = this.positions[parent];
        i = parent;
      }
      this.scores[i] = score;
      this.positions[i] = position;
      return;
    }
    if (!this.worse(this.scores[0], this.positions[0], score, position)) return;
    // replace the root (the worst kept) and sift down
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.size) break;
      const right = left + 1;
      let child = left;
      if (right < this.size && this.worse(this.scores[right], this.positions[right], this.scores[left], this.positions[left])) child = right;
      if (!this.worse(this.scores[child], this.positions[child], score, position)) break;
      this.scores[i] = this.scores[child];
      this.positions[i] = this.positions[child];
      i = child;
    }
    this.scores[i] = score;
    this.positions[i] = position;
  }

  /** a ranks below b */
  private worse(scoreA: number, positionA: number, scoreB: number, positionB: number): boolean {
    return scoreA < scoreB || (scoreA === scoreB && this.ridOf[positionA] > this.ridOf[positionB]);
  }

  sorted(): { score: number; position: number }[] {
    const out: { score: number; position: number }[] = [];
    for (let i = 0; i < this.size; i++) out.push({ score: this.scores[i], position: this.positions[i] });
    return out.sort((a, b) => b.score - a.score || this.ridOf[a.position] - this.ridOf[b.position]);
  }
}
