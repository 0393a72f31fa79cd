/**
 * Vectors are stored as little-endian float64 BLOBs, 8 bytes a dimension, so a vector reads back
 * exactly as it was logged (clients compare what they wrote for equality). The similarity search
 * keeps its own quantised copy (search/vector-index.ts, pgvector's `embedding`).
 */
export const BYTES_PER_DIMENSION = 8;

export function encodeVector(values: ArrayLike<number>): Uint8Array {
  // Already float64 (a bulk write's vectors): its bytes as they are.
  if (values instanceof Float64Array) return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const floats = new Float64Array(values.length);
  for (let i = 0; i < values.length; i += 1) floats[i] = values[i];
  return new Uint8Array(floats.buffer, floats.byteOffset, floats.byteLength);
}

export function decodeVector(blob: Uint8Array): Float64Array {
  const copy = new Uint8Array(blob); // aligned copy: a Buffer slice may start at an odd offset
  return new Float64Array(copy.buffer, 0, copy.byteLength / BYTES_PER_DIMENSION);
}

/** The component `i` of a stored vector, without copying the BLOB. */
export function vectorComponent(view: DataView, i: number): number {
  return view.getFloat64(i * BYTES_PER_DIMENSION, true);
}

/** How many components a stored vector holds. */
export function vectorLength(blob: Uint8Array): number {
  return Math.floor(blob.byteLength / BYTES_PER_DIMENSION);
}

export function presentVector(blob: Uint8Array): number[] {
  return Array.from(decodeVector(blob));
}
