const TOKEN_KEY = 'scholia.token';
const REDIRECT_KEY = 'scholia.redirectTo';
const MEMORY_KEY = '__scholiaSessionMemory__';

type SessionStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
type Holder = { [MEMORY_KEY]?: Map<string, string> };

/**
 * The session for this page only, when the browser refuses `localStorage`: Scholia in a frame of
 * another site whose browser blocks third-party storage. The sign-in then holds until the frame is
 * reloaded. On `globalThis`, like the page's query cache, so every remote of the page reads it.
 */
function pageMemory(): SessionStore {
  const entries = ((globalThis as Holder)[MEMORY_KEY] ??= new Map<string, string>());
  return {
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
  };
}

function storage(): SessionStore {
  try {
    if (globalThis.localStorage) return globalThis.localStorage;
  } catch {
    // Reading `localStorage` throws where the browser denies this document its storage.
  }
  return pageMemory();
}

/** The bearer token of the signed-in user, or undefined when anonymous. */
export function readToken(): string | undefined {
  return storage().getItem(TOKEN_KEY) ?? undefined;
}

export function writeToken(token: string | undefined): void {
  if (token) storage().setItem(TOKEN_KEY, token);
  else storage().removeItem(TOKEN_KEY);
}

export function isLoggedIn(): boolean {
  return Boolean(readToken());
}

/** Remembers where an anonymous visitor wanted to go (spec §2). */
export function storeRedirectTo(fullPath: string): void {
  storage().setItem(REDIRECT_KEY, fullPath);
}

/** Returns and forgets the stored target; only same-origin paths are accepted. */
export function takeRedirectTo(): string | undefined {
  const value = storage().getItem(REDIRECT_KEY) ?? undefined;
  storage().removeItem(REDIRECT_KEY);
  return value && value.startsWith('/') && !value.startsWith('//') ? value : undefined;
}
