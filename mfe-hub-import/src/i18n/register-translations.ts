import { i18next, initI18n } from '@scholia/shared/i18n';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';

export const HUB_IMPORT_NAMESPACE = 'hubImport';

/** Adds the 'hubImport' namespace to the page's one i18next (idempotent; deep merge, overwrite). */
export function registerHubImportTranslations(): void {
  initI18n();
  for (const [language, bundle] of Object.entries({ en, de, es })) {
    i18next.addResourceBundle(language, HUB_IMPORT_NAMESPACE, bundle, true, true);
  }
}
