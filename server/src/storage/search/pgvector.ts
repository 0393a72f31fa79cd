import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import type { Tables } from '../tables.js';
import { presentVector } from '../vector-codec.js';
import type { SimilarityHit, SimilarityOptions } from './vector-index.js';

/**
 * Similarity search through pgvector's HNSW index, on PostgreSQL when the `vector` extension is
 * installed (README, PostgreSQL). Vectors keep their exact float64 `value` (the exact search and every
 * read use it) and gain an `embedding vector` copy; each vector settings gets a partial HNSW index
 * over `embedding::vector(<dimensions>)` for its rows.
 *
 * A write stores the value only: adding a vector to an HNSW index costs milliseconds (most of a
 * bulk write's time with vectors), so the embeddings are filled after the write, in batches
 * (embedding-filler.ts). A set with vectors still waiting for theirs is searched exactly, so a
 * vector is found from the moment its write is acknowledged.
 *
 * HNSW is approximate, as the reference engine's kNN is, so it serves only where an exact scan
 * costs: sets of 10,000 vectors or more, most-similar order, no text or filter restriction.
 * Everything else takes the exact in-memory search (vector-index.ts). The index is read by every
 * server process as it is, so a vector written through one is found through another at once,
 * with no in-memory copy to reload.
 */

/** Below this many vectors in a set the exact scan is fast and its results are exact. */
let minVectors = 10_000;
/** How long a set's size verdict is trusted before it is counted again. */
const SIZE_TTL_MS = 30_000;

/** Per database (keyed by its adapter, which transactions share): whether `embedding` is kept. */
const enabled = new WeakMap<object, boolean>();
const sizeVerdicts = new Map<string, { large: boolean; at: number }>();

const adapterOf = (db: Kysely<Tables>) => db.getExecutor().adapter;

/** Whether vector writes fill `embedding` and large sets are searched through HNSW. */
export function usesPgvector(db: Kysely<Tables>): boolean {
  return enabled.get(adapterOf(db)) ?? false;
}

/** Sets the size from which sets are searched through HNSW (tests). */
export function setPgvectorMinVectors(value: number): void {
  minVectors = value;
  sizeVerdicts.clear();
}

/**
 * At start on PostgreSQL: creates the extension when it is available and allowed, adds
 * `embedding`, and makes sure every vector settings has its index; `wanted` false
 * (SCHOLIA_PGVECTOR=off) keeps pgvector out. Without the extension nothing changes and the exact
 * search serves alone. Server processes starting together take these steps one after the other
 * (an advisory lock), so none trips over another's half-made column, trigger or index.
 */
export async function preparePgvector(db: Kysely<Tables>, wanted: boolean): Promise<PgvectorState> {
  const unavailable = wanted && dialectOf(db) === 'postgres' ? await oneAtATime(db, ensureExtension).catch(extensionRefusal) : 'off';
  const on = unavailable === undefined;
  enabled.set(adapterOf(db), on);
  // Off by choice (SCHOLIA_PGVECTOR, SQLite) needs no word; off against the setting says why.
  if (!on) return { enabled: false, unavailable: unavailable === 'off' ? undefined : unavailable };
  await oneAtATime(db, async (trx) => {
    await sql`ALTER TABLE vectors ADD COLUMN IF NOT EXISTS embedding vector`.execute(trx);
    await clearStaleEmbeddings(trx);
    await sql`DROP INDEX IF EXISTS vectors_embedding_missing`.execute(trx);
    await sql`CREATE INDEX IF NOT EXISTS vectors_embedding_pending ON vectors (vector_settings_id) WHERE embedding IS NULL`.execute(trx);
    const { rows } = await sql<{ id: string; dimensions: number }>`SELECT id, dimensions FROM vector_settings`.execute(trx);
    for (const settings of rows) await createVectorIndex(trx, settings);
  });
  return { enabled: true };
}

/** Whether pgvector serves, and when it was wanted but cannot, why (for the start-up log). */
export interface PgvectorState {
  enabled: boolean;
  unavailable?: string;
}

const extensionRefusal = (error: unknown): string =>
  `the "vector" extension could not be created (${error instanceof Error ? error.message : String(error)}): a superuser must run CREATE EXTENSION vector in this database`;

async function oneAtATime<T>(db: Kysely<Tables>, step: (trx: Kysely<Tables>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('scholia.pgvector'))`.execute(trx);
    return step(trx);
  });
}

/** Undefined when the extension is there, created now if it is available (which needs the right to); else why not. */
async function ensureExtension(db: Kysely<Tables>): Promise<string | undefined> {
  if ((await sql`SELECT 1 FROM pg_extension WHERE extname = 'vector'`.execute(db)).rows.length > 0) return undefined;
  if ((await sql`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`.execute(db)).rows.length === 0) {
    return 'the PostgreSQL server has no "vector" extension installed (pgvector)';
  }
  await sql`CREATE EXTENSION vector`.execute(db);
  return undefined;
}

/**
 * A write that changes a vector's value without its embedding (every write now; a process with
 * SCHOLIA_PGVECTOR=off too) clears the embedding, rather than leave it pointing at the old vector:
 * the vector is then waiting for its embedding again.
 */
async function clearStaleEmbeddings(db: Kysely<Tables>): Promise<void> {
  await sql`CREATE OR REPLACE FUNCTION clear_stale_embedding() RETURNS trigger AS $$
    BEGIN
      IF NEW.value IS DISTINCT FROM OLD.value AND NEW.embedding IS NOT DISTINCT FROM OLD.embedding THEN
        NEW.embedding := NULL;
      END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql`.execute(db);
  await sql`CREATE OR REPLACE TRIGGER vectors_clear_stale_embedding BEFORE UPDATE ON vectors
    FOR EACH ROW EXECUTE FUNCTION clear_stale_embedding()`.execute(db);
}

/**
 * Fills the embeddings of up to `max` waiting vectors (written without one, or changed since) in
 * one transaction, and says how many. Rows another process is filling are skipped, and a write to
 * a row waits for its batch to commit (then clears the embedding again if the value changed).
 */
export async function fillPendingEmbeddings(db: Kysely<Tables>, max: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ record_id: string; vector_settings_id: string; value: Uint8Array }>`
      SELECT record_id, vector_settings_id, value FROM vectors WHERE embedding IS NULL LIMIT ${max} FOR UPDATE SKIP LOCKED`.execute(trx);
    if (rows.length === 0) return 0;
    const values = rows.map((row) => sql`(${row.record_id}, ${row.vector_settings_id}, ${embeddingText(presentVector(row.value))}::vector)`);
    await sql`UPDATE vectors v SET embedding = m.embedding FROM (VALUES ${sql.join(values)}) AS m (record_id, vector_settings_id, embedding)
      WHERE v.record_id = m.record_id AND v.vector_settings_id = m.vector_settings_id`.execute(trx);
    return rows.length;
  });
}

/** Whether some vector of the set is still waiting for its embedding (then the HNSW index would miss it). */
async function hasPendingEmbeddings(db: Kysely<Tables>, vectorSettingsId: string): Promise<boolean> {
  const { rows } = await sql`SELECT 1 FROM vectors WHERE vector_settings_id = ${vectorSettingsId} AND embedding IS NULL LIMIT 1`.execute(db);
  return rows.length > 0;
}

/** The largest float32, pgvector's component type. */
const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * pgvector's text form of a vector: `[1,0.5,-2]` (stored vectors: their float64 components).
 * pgvector refuses a component past float32's range, and one refused vector would fail its whole
 * batch, again at every try: such components are written as the largest float32 of their sign.
 */
export function embeddingText(values: ArrayLike<number>): string {
  const component = (value: number) => (Number.isFinite(value) ? Math.min(FLOAT32_MAX, Math.max(-FLOAT32_MAX, value)) : 0);
  return `[${Array.from(values, component).join(',')}]`;
}

/** A vector settings id as it may be written into SQL: a UUID, checked. */
function checkedId(vectorSettingsId: string): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(vectorSettingsId)) throw new Error('invalid vector settings id');
  return vectorSettingsId;
}

const indexName = (vectorSettingsId: string) => `vectors_hnsw_${checkedId(vectorSettingsId).replace(/-/g, '')}`;

/** The settings' partial HNSW index (cosine distance); a no-op when pgvector is not in use. */
export async function createVectorIndex(db: Kysely<Tables>, settings: { id: string; dimensions: number }): Promise<void> {
  if (!usesPgvector(db)) return;
  const dimensions = Math.trunc(settings.dimensions);
  await sql
    .raw(
      `CREATE INDEX IF NOT EXISTS ${indexName(settings.id)} ON vectors
       USING hnsw ((embedding::vector(${dimensions})) vector_cosine_ops) WHERE vector_settings_id = '${checkedId(settings.id)}'`,
    )
    .execute(db);
}

export async function dropVectorIndex(db: Kysely<Tables>, vectorSettingsId: string): Promise<void> {
  if (!usesPgvector(db)) return;
  await sql.raw(`DROP INDEX IF EXISTS ${indexName(vectorSettingsId)}`).execute(db);
}

/**
 * The best hits through the HNSW index, or undefined when this search is one for the exact
 * scan (pgvector not in use, a small set, vectors waiting for their embedding, least-similar
 * order, restricted candidates).
 */
export async function findSimilarWithPgvector(
  db: Kysely<Tables>,
  settings: { id: string; dimensions: number },
  query: ArrayLike<number>,
  options: SimilarityOptions,
): Promise<SimilarityHit[] | undefined> {
  if (!usesPgvector(db) || options.negate || options.candidateRids !== undefined) return undefined;
  if (!(await isLargeSet(db, settings.id)) || (await hasPendingEmbeddings(db, settings.id))) return undefined;
  const type = sql.raw(`vector(${Math.trunc(settings.dimensions)})`);
  const wanted = options.limit + (options.excludeRid === undefined ? 0 : 1);
  // Written exactly as the index expression, and the partial index's predicate as a literal, or
  // the planner cannot match the index.
  const distance = sql`v.embedding::${type} <=> ${embeddingText(query)}::${type}`;
  const rows = await db.transaction().execute(async (trx) => {
    // ef_search bounds how many candidates a search keeps: at least the hits asked for (max 1000).
    await sql.raw(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(64, wanted))}`).execute(trx);
    const result = await sql<{ rid: number; distance: number }>`
      SELECT r.rid, ${distance} AS distance FROM vectors v JOIN records r ON r.id = v.record_id
      WHERE v.vector_settings_id = ${sql.raw(`'${checkedId(settings.id)}'`)} ORDER BY ${distance} LIMIT ${wanted}`.execute(trx);
    return result.rows;
  });
  return rows
    .filter((row) => Number(row.rid) !== options.excludeRid)
    .slice(0, options.limit)
    .map((row) => ({ rid: Number(row.rid), cosine: 1 - Number(row.distance) }));
}

async function isLargeSet(db: Kysely<Tables>, vectorSettingsId: string): Promise<boolean> {
  const known = sizeVerdicts.get(vectorSettingsId);
  if (known && performance.now() - known.at < SIZE_TTL_MS) return known.large;
  const { rows } = await sql<{ n: number }>`
    SELECT count(*) AS n FROM (SELECT 1 FROM vectors WHERE vector_settings_id = ${vectorSettingsId} LIMIT ${minVectors}) v`.execute(db);
  const large = Number(rows[0]?.n ?? 0) >= minVectors;
  sizeVerdicts.set(vectorSettingsId, { large, at: performance.now() });
  return large;
}
