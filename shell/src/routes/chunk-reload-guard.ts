/** At most one automatic reload per this window (spec §2, §9). */
export const CHUNK_RELOAD_WINDOW_MS = 60_000;
const STORAGE_KEY = 'scholia.chunkReloadAt';

/** True for the errors a stale deployment produces when a lazy chunk is gone. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ChunkLoadError' || /Loading (CSS )?chunk [\w-]+ failed/i.test(error.message);
}

export function shouldReload(now: number, lastReloadAt: number | undefined): boolean {
  return lastReloadAt === undefined || Number.isNaN(lastReloadAt) || now - lastReloadAt >= CHUNK_RELOAD_WINDOW_MS;
}

/** The tab's sessionStorage; none where the browser denies it (a frame on another site, say). */
function tabStorage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * Reloads the page after a chunk-load failure unless it already did within 60 s, or the browser
 * is offline (the chunk failed because the connection dropped: a reload would replace the page,
 * and the answers kept for later, with the browser's offline error page).
 * Returns whether a reload was triggered, so callers can show the error otherwise.
 */
export function reloadAfterChunkError(
  error: unknown,
  deps: { now?: () => number; storage?: Pick<Storage, 'getItem' | 'setItem'>; reload?: () => void; online?: () => boolean } = {},
): boolean {
  if (!isChunkLoadError(error)) return false;
  if (!(deps.online ?? (() => globalThis.navigator?.onLine ?? true))()) return false;
  const now = (deps.now ?? Date.now)();
  const storage = deps.storage ?? tabStorage();
  // With nowhere to note the reload, the next page could reload again, and so on for ever.
  if (!storage) return false;
  const last = storage.getItem(STORAGE_KEY);
  if (!shouldReload(now, last ? Number(last) : undefined)) return false;
  storage.setItem(STORAGE_KEY, String(now));
  (deps.reload ?? (() => window.location.reload()))();
  return true;
}
