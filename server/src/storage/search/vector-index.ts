import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import type { Tables } from '../tables.js';
import { DOT_KERNEL_WASM_BASE64 } from './dot-kernel.wasm.js';
import { findSimilarWithPgvector } from './pgvector.js';
import { grown } from './typed-arrays.js';
import { memoryRelease } from '../../lib/memory-release.js';
import { vectorComponent, vectorLength } from '../vector-codec.js';

/**
 * Exact cosine similarity over one vector settings' vectors (contract §4.2), in two steps:
 *
 * 1. Every vector is kept in memory unit-normalised and quantised to int8 (one scale per vector),
 *    zero-padded in WebAssembly memory so the SIMD kernel (dot-kernel.wat) scans them: a quarter
 *    of float32's memory (100k×384 is 37 MiB, not 147), which is what keeps the server's RSS in
 *    bounds at a million records. For each vector the quantisation error ‖v − scale·codes‖ is kept
 *    too: with a unit query it bounds how far the approximate score can be from the exact one.
 * 2. The approximate scores give the k-th best lower bound; only vectors whose upper bound reaches
 *    it can be in the top k, and those few are re-scored exactly from the stored float64 BLOBs.
 *    The result is the exact top k, not an approximation; usually only k plus a few dozen rows are read.
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

/** Upper bound on cached int8 codes (bytes) over all vector sets; least recently used go first. */
const CACHE_BUDGET_BYTES = 128 * 1024 * 1024;

/** Covers float32 rounding in the kernel's sums and in the query, far above both (~1e-5). */
const BOUND_SLACK = 1e-4;

/** Rids per exact re-scoring query: well under SQLite's bound-parameter limit. */
const RESCORE_CHUNK = 500;

interface VectorSet {
  version: number;
  dimensions: number;
  /** Row width in bytes (one int8 code a dimension): dimensions rounded up to a multiple of 16. */
  stride: number;
  count: number;
  /** position → record rid */
  rids: Float64Array;
  /** record rid → position */
  positions: Map<number, number>;
  /** position → factor from the kernel's code dot product to an approximate cosine */
  scales: Float32Array;
  /** position → ‖unit vector − scale·codes‖: the most the approximate cosine can be off by */
  errors: Float32Array;
  kernel: KernelExports;
  queryOffset: number;
  outOffset: number;
  vectorsOffset: number;
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

/**
 * The best `limit` records by cosine similarity to `query`, best first: through pgvector's index
 * where it serves (storage/search/pgvector.ts), else exactly, as below.
 */
export async function findSimilarRecords(
  db: Kysely<Tables>,
  vectorSettings: { id: string; dimensions: number },
  query: ArrayLike<number>,
  options: SimilarityOptions,
): Promise<SimilarityHit[]> {
  const viaIndex = await findSimilarWithPgvector(db, vectorSettings, query, options);
  if (viaIndex) return viaIndex;
  const set = await currentVectorSet(db, vectorSettings);
  if (set.count === 0 || options.limit <= 0) return [];
  const unitQuery = writeQuery(set, query, options.negate);
  const candidates = approximateCandidates(set, options);
  return rescoreExactly(db, vectorSettings, set, unitQuery, candidates, options.limit);
}

/**
 * Positions that may be among the best `limit`: an upper bound (approximate + error) that
 * reaches the `limit`-th best lower bound. Everything else is beaten by at least `limit` others.
 */
function approximateCandidates(set: VectorSet, options: SimilarityOptions): number[] {
  const out = new Float32Array(set.kernel.memory.buffer, set.outOffset, set.count);
  const excluded = options.excludeRid === undefined ? -1 : (set.positions.get(options.excludeRid) ?? -1);
  const eligible = eligiblePositions(set, options.candidateRids, excluded);
  if (eligible === undefined) {
    set.kernel.scores(set.vectorsOffset, set.count, set.stride, set.queryOffset, set.outOffset);
  } else {
    // One kernel call per candidate (rows are contiguous, so a row's address is enough): cheaper
    // than a full scan when filters are selective, the same cost otherwise.
    for (const position of eligible) {
      set.kernel.scores(set.vectorsOffset + position * set.stride, 1, set.stride, set.queryOffset, set.outOffset + position * 4);
    }
  }
  const approx = (position: number) => out[position] * set.scales[position];
  const margin = (position: number) => set.errors[position] + BOUND_SLACK;

  const lowerBounds = new TopK(options.limit, set.rids);
  const visit = (fn: (position: number) => void) => {
    if (eligible !== undefined) eligible.forEach(fn);
    else for (let position = 0; position < set.count; position++) if (position !== excluded) fn(position);
  };
  visit((position) => lowerBounds.offer(approx(position) - margin(position), position));
  const threshold = lowerBounds.full() ? lowerBounds.worstScore() : -Infinity;
  const candidates: number[] = [];
  visit((position) => {
    if (approx(position) + margin(position) >= threshold) candidates.push(position);
  });
  return candidates;
}

function eligiblePositions(set: VectorSet, candidateRids: ArrayLike<number> | undefined, excluded: number): number[] | undefined {
  if (candidateRids === undefined) return undefined;
  const positions: number[] = [];
  for (let i = 0; i < candidateRids.length; i++) {
    const position = set.positions.get(candidateRids[i]);
    if (position !== undefined && position !== excluded) positions.push(position);
  }
  return positions;
}

/** Exact cosines of the candidates from their stored vectors; the best `limit`, best first. */
async function rescoreExactly(
  db: Kysely<Tables>,
  settings: { id: string; dimensions: number },
  set: VectorSet,
  unitQuery: Float64Array,
  candidates: number[],
  limit: number,
): Promise<SimilarityHit[]> {
  const top = new TopK(limit, set.rids);
  for (let i = 0; i < candidates.length; i += RESCORE_CHUNK) {
    const chunk = candidates.slice(i, i + RESCORE_CHUNK);
    // SQLite: CROSS JOIN keeps the records found by rid as the outer loop; the planner would
    // otherwise walk every vector of the set and probe the records.
    const join = sql.raw(dialectOf(db) === 'postgres' ? 'JOIN' : 'CROSS JOIN');
    const { rows } = await sql<{ rid: number; value: Uint8Array }>`
      SELECT r.rid, v.value FROM records r ${join} vectors v ON v.record_id = r.id AND v.vector_settings_id = ${settings.id}
      WHERE r.rid IN (${sql.join(chunk.map((position) => set.rids[position]))})`.execute(db);
    for (const row of rows) {
      // A vector written since the copy was loaded is scored as it is now; a deleted one is gone.
      const position = set.positions.get(Number(row.rid));
      if (position !== undefined) top.offer(exactCosine(row.value, unitQuery, set.dimensions), position);
    }
  }
  return top.sorted().map(({ position, score }) => ({ rid: set.rids[position], cosine: score }));
}

function exactCosine(blob: Uint8Array, unitQuery: Float64Array, dimensions: number): number {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const n = Math.min(dimensions, vectorLength(blob));
  let dot = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const value = vectorComponent(view, i);
    dot += value * unitQuery[i];
    sum += value * value;
  }
  if (sum === 0) return 0; // a zero vector has cosine 0 with everything
  return Math.max(-1, Math.min(1, dot / Math.sqrt(sum)));
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
    pending = loadVectorSet(db, settings, version).finally(() => {
      loading.delete(key);
      memoryRelease.soon();
    });
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
  // Layout: the query, the codes, then the scores; the codes area can still grow while
  // loading (rows written after the count), so the scores go after it once the count is known.
  const queryOffset = 0;
  const vectorsOffset = align(stride * 4, 64);
  let capacity = expected;
  ensureMemory(kernel, vectorsOffset + capacity * stride);

  let rids = new Float64Array(capacity);
  let scales = new Float32Array(capacity);
  let errors = new Float32Array(capacity);
  const positions = new Map<number, number>();
  const unit = new Float64Array(dimensions);
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
      ensureMemory(kernel, vectorsOffset + capacity * stride);
      rids = grown(rids, capacity);
      scales = grown(scales, capacity);
      errors = grown(errors, capacity);
    }
    const codes = new Int8Array(kernel.memory.buffer);
    for (const row of page) {
      const quantised = quantise(row.value, dimensions, unit, codes, vectorsOffset + count * stride);
      scales[count] = quantised.scale;
      errors[count] = quantised.error;
      rids[count] = Number(row.rid);
      positions.set(Number(row.rid), count);
      count += 1;
    }
    after = page[page.length - 1].record_id;
    if (page.length < LOAD_PAGE_ROWS) break;
  }
  const outOffset = align(vectorsOffset + count * stride, 64);
  ensureMemory(kernel, outOffset + count * 4);
  return {
    version,
    dimensions,
    stride,
    count,
    rids: rids.subarray(0, count),
    positions,
    scales: scales.subarray(0, count),
    errors: errors.subarray(0, count),
    kernel,
    queryOffset,
    outOffset,
    vectorsOffset,
    lastUsed: performance.now(),
  };
}

/**
 * Writes the unit vector of `blob` as int8 codes at `codes[at…]` (symmetric, one scale per
 * vector: the largest component maps to ±127) and returns the scale and the quantisation error.
 */
function quantise(blob: Uint8Array, dimensions: number, unit: Float64Array, codes: Int8Array, at: number): { scale: number; error: number } {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const n = Math.min(dimensions, vectorLength(blob));
  let sum = 0;
  for (let i = 0; i < n; i++) {
    unit[i] = vectorComponent(view, i);
    sum += unit[i] * unit[i];
  }
  unit.fill(0, n);
  let largest = 0;
  const inverseNorm = sum === 0 ? 0 : 1 / Math.sqrt(sum);
  for (let i = 0; i < dimensions; i++) {
    unit[i] *= inverseNorm;
    largest = Math.max(largest, Math.abs(unit[i]));
  }
  if (largest === 0) return { scale: 0, error: 0 }; // a zero vector has cosine 0 with everything
  const scale = Math.fround(largest / 127);
  let squaredError = 0;
  for (let i = 0; i < dimensions; i++) {
    const code = Math.max(-127, Math.min(127, Math.round(unit[i] / scale)));
    codes[at + i] = code;
    squaredError += (unit[i] - scale * code) ** 2;
  }
  return { scale, error: Math.sqrt(squaredError) };
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

/** Writes the unit query (float32) for the kernel and returns it in float64 for exact re-scoring. */
function writeQuery(set: VectorSet, query: ArrayLike<number>, negate: boolean): Float64Array {
  const unit = new Float64Array(set.dimensions);
  const n = Math.min(query.length, set.dimensions);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    unit[i] = negate ? -query[i] : query[i];
    sum += unit[i] * unit[i];
  }
  if (sum > 0) {
    const scale = 1 / Math.sqrt(sum);
    for (let i = 0; i < n; i++) unit[i] *= scale;
  }
  const view = new Float32Array(set.kernel.memory.buffer, set.queryOffset, set.stride);
  view.fill(0);
  view.set(unit);
  return unit;
}

function evictOverBudget(keep: string): void {
  let total = 0;
  for (const set of cache.values()) total += set.count * set.stride;
  const byAge = [...cache.entries()].filter(([id]) => id !== keep).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
  for (const [id, set] of byAge) {
    if (total <= CACHE_BUDGET_BYTES) break;
    cache.delete(id);
    total -= set.count * set.stride;
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

  full(): boolean {
    return this.size === this.k;
  }

  /** The lowest kept score (the root of the min-heap). */
  worstScore(): number {
    return this.scores[0];
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
