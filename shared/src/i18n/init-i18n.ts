import i18next, { type BackendModule, type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { bus } from '../bus/event-bus.js';
import { en } from './locales/en.js';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language, readStoredLanguage, storeLanguage } from './language.js';
import { createNumberFormatter } from './format.js';

/**
 * English is the default and the fallback of every key, so it ships with the page. German and
 * Spanish are chunks of their own, fetched when first used: most visits never need them, and
 * they were a quarter of the shell's own code before the first render.
 */
const LAZY_LOCALES: Readonly<Record<string, () => Promise<unknown>>> = {
  de: async () => (await import('./locales/de.js')).de,
  es: async () => (await import('./locales/es.js')).es,
};

/**
 * Loads the lazy locales through i18next's backend hook, so every way of switching language
 * (ours, `i18next.changeLanguage`, react-i18next's suspense) waits for the strings. Other
 * namespaces belong to the remotes, which add their bundles themselves: none to fetch. A remote
 * with an i18next of its own (the annotation remote) loads the shared strings with it too.
 */
export const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = namespace === 'translation' ? LAZY_LOCALES[language] : undefined;
    if (!load) return callback(null, {});
    load().then((bundle) => callback(null, bundle as Record<string, unknown>), (error: unknown) => callback(error as Error, null));
  },
};

/**
 * Initialises the one i18next instance of the page. Idempotent: shell, each remote's
 * single-spa entry and tests may all call it; only the first call configures.
 */
export function initI18n(language: Language = readStoredLanguage()): i18n {
  if (!i18next.isInitialized) {
    void i18next.use(lazyLocales).use(initReactI18next).use(createNumberFormatter()).init({
      resources: { en: { translation: en } },
      partialBundledLanguages: true,
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      interpolation: { escapeValue: false, alwaysFormat: true }, // React escapes already; numbers in the browser's format
      returnNull: false,
      initAsync: false,
    });
    setDocumentLanguage(language);
  }
  return i18next;
}

/**
 * Whether the interface already speaks `language` with its strings loaded: the page may start in
 * a language whose strings are still on their way (initI18n).
 */
export function isLanguageReady(language: Language): boolean {
  return i18next.language === language && i18next.hasResourceBundle(language, 'translation');
}

/** Switches, saves and announces the interface language, once its strings are loaded. */
export async function changeLanguage(language: Language): Promise<void> {
  storeLanguage(language);
  if (!isLanguageReady(language)) await i18next.changeLanguage(language);
  setDocumentLanguage(language);
  bus.emit('language:changed', { language });
}

function setDocumentLanguage(language: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

export { i18next };
