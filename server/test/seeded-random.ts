/** A repeatable stream of numbers in [0, 1) from a seed (a linear congruential generator), so a failing test replays. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}
