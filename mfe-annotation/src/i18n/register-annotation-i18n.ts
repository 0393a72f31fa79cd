import type { i18n } from 'i18next';
import { createNumberFormatter, en as sharedEn, i18next, LANGUAGES, lazyLocales, readStoredLanguage } from '@scholia/shared/i18n';
import { bus } from '@scholia/shared/bus';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';

export const ANNOTATION_NAMESPACE = 'annotation';

/**
 * The remote's own i18next: its `annotation` strings and the shared `translation` ones. The page's
 * i18next (the shell's, or a host's own) is neither read nor changed, so a host with its own
 * i18next shows no raw keys and keeps its language; `<html lang>` stays the page's.
 */
export const annotationI18n: i18n = i18next.createInstance();

/**
 * Starts the remote's i18next once, in the language saved in this browser (a host's `language`
 * prop switches it after); returns it.
 */
export function registerAnnotationI18n(): i18n {
  if (annotationI18n.isInitialized) return annotationI18n;
  void annotationI18n.use(lazyLocales).use(createNumberFormatter()).init({
    resources: { en: { translation: sharedEn, [ANNOTATION_NAMESPACE]: en }, de: { [ANNOTATION_NAMESPACE]: de }, es: { [ANNOTATION_NAMESPACE]: es } },
    partialBundledLanguages: true,
    ns: ['translation', ANNOTATION_NAMESPACE],
    lng: readStoredLanguage(),
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false, alwaysFormat: true }, // React escapes already; numbers in the browser's format
    returnNull: false,
    initAsync: false,
  });
  // Scholia's shell announces its language changes on the bus; the remote follows them.
  bus.on('language:changed', ({ language: next }) => void annotationI18n.changeLanguage(next));
  return annotationI18n;
}
