/** A comparator of indexes: column positions, or matches (indexes into a list of positions or hits). */
export type Order = (a: number, b: number) => number;

/** The first `k` of matches 0…count-1 in `compare` order: a bounded heap, O(count log k), not a full sort. */
export function bestMatches(count: number, compare: Order, k: number): number[] {
  if (k <= 0) return [];
  if (count <= k) return Array.from({ length: count }, (_, i) => i).sort(compare);
  // Max-heap by `compare` of the k best so far: the root is the worst kept.
  const heap: number[] = [];
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compare(heap[i], heap[parent]) <= 0) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) return;
      const child = left + 1 < heap.length && compare(heap[left + 1], heap[left]) > 0 ? left + 1 : left;
      if (compare(heap[child], heap[i]) <= 0) return;
      [heap[i], heap[child]] = [heap[child], heap[i]];
      i = child;
    }
  };
  for (let match = 0; match < count; match++) {
    if (heap.length < k) {
      heap.push(match);
      up(heap.length - 1);
    } else if (compare(match, heap[0]) < 0) {
      heap[0] = match;
      down(0);
    }
  }
  return heap.sort(compare);
}
