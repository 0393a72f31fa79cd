/** Vectors are stored as little-endian float32 BLOBs: 4 bytes a dimension. */
export function encodeVector(values: number[]): Uint8Array {
  const floats = Float32Array.from(values);
  return new Uint8Array(floats.buffer, floats.byteOffset, floats.byteLength);
}

export function decodeVector(blob: Uint8Array): Float32Array {
  const copy = new Uint8Array(blob); // aligned copy: a Buffer slice may start at an odd offset
  return new Float32Array(copy.buffer, 0, copy.byteLength / 4);
}

/**
 * The shortest decimal that maps to the same float32, so `0.1` goes out as `0.1` rather than
 * `0.10000000149011612` and clients comparing what they logged see the same numbers.
 */
export function presentVector(blob: Uint8Array): number[] {
  const floats = decodeVector(blob);
  const out = new Array<number>(floats.length);
  for (let i = 0; i < floats.length; i++) out[i] = shortestFloat32(floats[i]);
  return out;
}

function shortestFloat32(value: number): number {
  for (let precision = 6; precision < 10; precision++) {
    const candidate = Number(value.toPrecision(precision));
    if (Math.fround(candidate) === value) return candidate;
  }
  return value;
}
