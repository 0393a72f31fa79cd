import { describe, expect, it } from 'vitest';
import { changeLanguage, i18next } from '@scholia/shared/i18n';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { registerHomeTranslations } from './home-translation.js';

const leaves = (value: unknown, prefix = ''): string[] => typeof value === 'string'
  ? [prefix]
  : Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));

describe('home strings', () => {
  it('has every key in de and es', () => {
    expect(leaves(de).sort()).toEqual(leaves(en).sort());
    expect(leaves(es).sort()).toEqual(leaves(en).sort());
  });

  it('pluralises the dataset count in each language, beside the shared strings', async () => {
    registerHomeTranslations();
    const t = i18next.getFixedT(null, ['home', 'translation']);
    expect(t('home.datasetsFound', { count: 0 })).toBe('0 datasets found');
    expect(t('home.datasetsFound', { count: 1 })).toBe('1 dataset found');
    expect(t('common.retry')).toBe('Retry');
    await changeLanguage('de');
    expect(i18next.getFixedT(null, ['home', 'translation'])('home.datasetsFound', { count: 3 })).toBe('3 Datasets gefunden');
    await changeLanguage('en');
  });
});
