import { i18next, initI18n } from '@scholia/shared/i18n';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';

export const ANNOTATION_NAMESPACE = 'annotation';

/**
 * Adds this remote's strings as the `annotation` namespace of the page's one i18next. Called
 * when `./App` or `./lifecycles` loads; safe to call again. Never sets `<html lang>`: in Scholia
 * the shell does, elsewhere the page is the host's.
 */
export function registerAnnotationI18n(): void {
  initI18n(undefined, { ownsDocument: false });
  for (const [language, bundle] of Object.entries({ en, de, es })) {
    i18next.addResourceBundle(language, ANNOTATION_NAMESPACE, bundle, true, true);
  }
}
