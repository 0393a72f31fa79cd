import { initI18n } from '@scholia/shared/i18n';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';

/** The i18next namespace of this remote; components use `useTranslation(SETTINGS_NS)`. */
export const SETTINGS_NS = 'settings';

export const settingsBundles = { en, de, es } as const;

/**
 * Adds this remote's strings to the page's one i18next instance. Runs when `./App` or
 * `./lifecycles` loads; safe to call again (deep merge, overwrite).
 */
export function registerSettingsI18n(): void {
  const i18n = initI18n();
  for (const [language, bundle] of Object.entries(settingsBundles)) {
    i18n.addResourceBundle(language, SETTINGS_NS, bundle, true, true);
  }
}
