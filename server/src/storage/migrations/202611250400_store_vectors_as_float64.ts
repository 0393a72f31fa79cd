import { sql, type Kysely } from 'kysely';

/**
 * Vector values go from float32 to float64 BLOBs (storage/vector-codec.ts), so a vector reads back
 * exactly as logged. A stored float32 cannot say which decimal was logged; each component becomes
 * the shortest decimal that rounds to that float32 (what was served until now), which is the value
 * logged whenever it had nine significant digits or fewer.
 */
const PAGE = 500;

interface StoredVector {
  record_id: string;
  vector_settings_id: string;
  value: Uint8Array;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await rewriteEveryVector(db, (blob) => {
    const copy = new Uint8Array(blob);
    const floats = new Float32Array(copy.buffer, 0, copy.byteLength >> 2);
    return Float64Array.from(floats, shortestFloat32Decimal);
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rewriteEveryVector(db, (blob) => {
    const copy = new Uint8Array(blob);
    return Float32Array.from(new Float64Array(copy.buffer, 0, copy.byteLength >> 3));
  });
}

async function rewriteEveryVector(db: Kysely<unknown>, convert: (blob: Uint8Array) => Float32Array | Float64Array): Promise<void> {
  let after: { record_id: string; vector_settings_id: string } | null = null;
  for (;;) {
    const page: StoredVector[] = (
      await sql<StoredVector>`SELECT record_id, vector_settings_id, value FROM vectors
        ${after ? sql`WHERE record_id > ${after.record_id} OR (record_id = ${after.record_id} AND vector_settings_id > ${after.vector_settings_id})` : sql``}
        ORDER BY record_id, vector_settings_id LIMIT ${PAGE}`.execute(db)
    ).rows;
    if (page.length === 0) return;
    for (const row of page) {
      const converted = convert(row.value);
      const bytes = Buffer.from(converted.buffer, converted.byteOffset, converted.byteLength);
      await sql`UPDATE vectors SET value = ${bytes} WHERE record_id = ${row.record_id} AND vector_settings_id = ${row.vector_settings_id}`.execute(db);
    }
    after = page[page.length - 1];
  }
}

function shortestFloat32Decimal(value: number): number {
  for (let precision = 6; precision < 10; precision++) {
    const candidate = Number(value.toPrecision(precision));
    if (Math.fround(candidate) === value) return candidate;
  }
  return value;
}
