/**
 * A vector's numbers as a view of a larger buffer: the vectors of a bulk write arrive this way
 * (bulk-body.ts). JSON.stringify writes it as the array of numbers it stands for, so a reply or a
 * webhook that carries it reads as if it held a plain array.
 */
export class VectorValues extends Float64Array {
  toJSON(): number[] {
    return Array.from(this);
  }
}
