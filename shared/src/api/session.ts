import { localOrPageStorage } from './page-storage.js';

const TOKEN_KEY = 'scholia.token';
const REDIRECT_KEY = 'scholia.redirectTo';
/** Where the session is kept: `localStorage`, or the page's memory where the browser denies it. */
const storage = localOrPageStorage;

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
