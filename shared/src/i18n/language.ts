/** Interface languages (spec §1). English is the default and the fallback. */
export const LANGUAGES = ['en', 'de', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

const STORAGE_KEY = 'scholia.language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language to start with: the saved choice, else English. Deliberately not the browser's
 * language (spec §1: "language not detected from the browser").
 */
export function resolveLanguage(stored: string | null | undefined): Language {
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

export function readStoredLanguage(storage: Pick<Storage, 'getItem'> | undefined = safeStorage()): Language {
  return resolveLanguage(storage?.getItem(STORAGE_KEY));
}

export function storeLanguage(language: Language, storage: Pick<Storage, 'setItem'> | undefined = safeStorage()): void {
  storage?.setItem(STORAGE_KEY, language);
}

function safeStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    // Storage access throws in sandboxed iframes; the app then runs without persistence.
    return undefined;
  }
}
