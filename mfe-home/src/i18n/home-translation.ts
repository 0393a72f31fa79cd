import { useTranslation } from 'react-i18next';
import { i18next, initI18n } from '@scholia/shared/i18n';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';

/**
 * The home screen's strings live with the home remote, not in every page's first download: the
 * `home` namespace, then the shared strings (`common.*`).
 */
const NAMESPACES = ['home', 'translation'] as const;

/** Adds the `home` namespace to the page's one i18next (idempotent). */
export function registerHomeTranslations(): void {
  initI18n();
  if (i18next.hasResourceBundle('en', 'home')) return;
  for (const [language, bundle] of Object.entries({ en, de, es })) i18next.addResourceBundle(language, 'home', bundle, true, true);
}

/** `useTranslation` for the home screen, its strings registered first. */
export function useHomeTranslation() {
  registerHomeTranslations();
  return useTranslation(NAMESPACES);
}
