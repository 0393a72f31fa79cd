/**
 * Every record holding a frequent term, kept with the champion lists (text-champions-builder.ts)
 * so that a text search with metadata filters or a sort does not ask the index for each hit.
 * PostgreSQL's GIN index finds a frequent term's 100k+ hits in ~30 ms but then visits each hit's
 * row for its rid (~0.25 s at 1M records); these lists answer in a few milliseconds.
 *
 * A record is named by its position in the snapshot the lists were built from (records in rid
 * order), so a list lines up with the metadata columns read at the same version. Each list is
 * stored as the smaller of two encodings: gaps between positions as varints (one byte a hit for
 * terms in 1 record of 128 or more), or a bitset over every position (frequent terms).
 */
export type PostingsEncoding = 'gaps' | 'bitset';

export interface TermPostings {
  /** The list is `bytes[offset .. offset + length)`. */
  offset: number;
  length: number;
  encoding: PostingsEncoding;
}

/** One term's positions as they are found, ascending. */
export class PostingsWriter {
  private bytes = new Uint8Array(64);
  private length = 0;
  private last = -1;
  count = 0;

  add(position: number): void {
    if (this.length + 5 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    let gap = position - this.last - 1;
    this.last = position;
    while (gap >= 0x80) {
      this.bytes[this.length++] = (gap & 0x7f) | 0x80;
      gap >>>= 7;
    }
    this.bytes[this.length++] = gap;
    this.count += 1;
  }

  /** The list in its smaller encoding, for a snapshot of `records` records. */
  finish(records: number): { bytes: Uint8Array; encoding: PostingsEncoding } {
    const gaps = this.bytes.subarray(0, this.length);
    if (Math.ceil(records / 8) >= gaps.length) return { bytes: gaps, encoding: 'gaps' };
    const bitset = new Uint8Array(Math.ceil(records / 8));
    for (const position of decodeGaps(gaps, this.count)) bitset[position >> 3] |= 1 << (position & 7);
    return { bytes: bitset, encoding: 'bitset' };
  }
}

/** The positions of one stored list, ascending. */
export function decodePostings(bytes: Uint8Array, postings: TermPostings, count: number): Int32Array {
  const list = bytes.subarray(postings.offset, postings.offset + postings.length);
  return postings.encoding === 'gaps' ? decodeGaps(list, count) : decodeBitset(list, count);
}

function decodeGaps(bytes: Uint8Array, count: number): Int32Array {
  const positions = new Int32Array(count);
  let position = -1;
  let at = 0;
  for (let i = 0; i < count; i++) {
    let gap = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = bytes[at++];
      gap |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    position += gap + 1;
    positions[i] = position;
  }
  return positions;
}

function decodeBitset(bytes: Uint8Array, count: number): Int32Array {
  const positions = new Int32Array(count);
  let found = 0;
  for (let i = 0; i < bytes.length; i++) {
    for (let bits = bytes[i]; bits !== 0; bits &= bits - 1) {
      positions[found++] = (i << 3) | (31 - Math.clz32(bits & -bits));
    }
  }
  return positions;
}

/** Positions in every list (each ascending), ascending; the shortest list leads. */
export function intersectPositions(lists: Int32Array[]): Int32Array {
  const [first, ...rest] = [...lists].sort((a, b) => a.length - b.length);
  let result = first;
  for (const other of rest) {
    const kept = new Int32Array(result.length);
    let count = 0;
    let j = 0;
    for (let i = 0; i < result.length; i++) {
      const position = result[i];
      while (j < other.length && other[j] < position) j++;
      if (j === other.length) break;
      if (other[j] === position) kept[count++] = position;
    }
    result = kept.subarray(0, count);
  }
  return result;
}
