import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { bus } from '../bus/event-bus.js';
import { de } from './locales/de.js';
import { en } from './locales/en.js';
import { es } from './locales/es.js';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language, readStoredLanguage, storeLanguage } from './language.js';

export const resources = {
  en: { translation: en },
  de: { translation: de },
  es: { translation: es },
} as const;

/**
 * Initialises the one i18next instance of the page. Idempotent: shell, each remote's
 * single-spa entry and tests may all call it; only the first call configures.
 */
export function initI18n(language: Language = readStoredLanguage()): i18n {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources,
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      interpolation: { escapeValue: false }, // React escapes already
      returnNull: false,
      initAsync: false,
    });
    setDocumentLanguage(language);
  }
  return i18next;
}

/** Switches, saves and announces the interface language. */
export async function changeLanguage(language: Language): Promise<void> {
  storeLanguage(language);
  if (i18next.language !== language) await i18next.changeLanguage(language);
  setDocumentLanguage(language);
  bus.emit('language:changed', { language });
}

function setDocumentLanguage(language: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

export { i18next };
