import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage, i18next, initI18n } from './init-i18n.js';
import { de } from './locales/de.js';
import { en as english } from './locales/en.js';
import { es } from './locales/es.js';
import { readStoredLanguage, resolveLanguage } from './language.js';

function leaves(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

function leafValues(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Object.values(value as Record<string, unknown>).flatMap(leafValues);
}

describe('language', () => {
  beforeEach(() => localStorage.clear());

  it('defaults to English and ignores the browser language', () => {
    expect(resolveLanguage(null)).toBe('en');
    expect(resolveLanguage('fr')).toBe('en');
    expect(resolveLanguage('de')).toBe('de');
    expect(readStoredLanguage()).toBe('en');
  });

  it('switches, persists and sets <html lang>', async () => {
    initI18n('en');
    await changeLanguage('es');
    expect(i18next.t('common.retry')).toBe('Reintentar');
    expect(localStorage.getItem('scholia.language')).toBe('es');
    expect(readStoredLanguage()).toBe('es');
    expect(document.documentElement.lang).toBe('es');
    await changeLanguage('en');
  });

  it('falls back to English for a missing key', async () => {
    initI18n('en');
    // A separate namespace, so the shared `translation` objects stay untouched.
    i18next.addResourceBundle('en', 'extra', { onlyEnglish: 'Only in English' });
    await changeLanguage('de');
    expect(i18next.t('extra:onlyEnglish')).toBe('Only in English');
    await changeLanguage('en');
  });

  it('has every key in de and es, translated (not copied from English)', () => {
    const en = leaves(english).sort();
    expect(leaves(de).sort()).toEqual(en);
    expect(leaves(es).sort()).toEqual(en);
    const enValues = leafValues(english);
    for (const translation of [de, es]) {
      const values = leafValues(translation);
      const same = values.filter((v, i) => v === enValues[i]);
      // Brand names, placeholders and a few international words may stay identical.
      expect(same.length / values.length).toBeLessThan(0.15);
    }
  });
});
