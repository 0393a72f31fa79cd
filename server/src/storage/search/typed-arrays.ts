type NumberArray = Float64Array | Float32Array | Int32Array;

/** A copy of `array` with room for `capacity` elements (the caches grow their arrays while loading). */
export function grown<T extends NumberArray>(array: T, capacity: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(capacity);
  bigger.set(array);
  return bigger;
}
