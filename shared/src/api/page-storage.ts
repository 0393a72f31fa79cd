/** The part of `Storage` Scholia uses. */
export type KeptStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

const MEMORY_KEY = '__scholiaPageStorage__';
type Holder = { [MEMORY_KEY]?: Map<string, string> };

/**
 * Page memory in the shape of `Storage`, on `globalThis` like the page's query cache, so the shell
 * and every remote of the page read the same entries.
 */
function pageMemory(): KeptStore {
  const entries = ((globalThis as Holder)[MEMORY_KEY] ??= new Map<string, string>());
  return {
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
    key: (index) => [...entries.keys()][index] ?? null,
    get length() {
      return entries.size;
    },
  };
}

/**
 * `localStorage`, or page memory where the browser denies this document its storage (Scholia in a
 * frame of another site with third-party storage blocked): what is kept then lasts as long as the
 * page, instead of being lost or throwing.
 */
export function localOrPageStorage(): KeptStore {
  try {
    if (globalThis.localStorage) return globalThis.localStorage;
  } catch {
    // Reading `localStorage` throws where the browser denies it.
  }
  return pageMemory();
}
