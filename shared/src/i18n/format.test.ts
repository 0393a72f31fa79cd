import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNumberFormatter, formatNumber, formatPercent } from './format.js';

afterEach(() => vi.unstubAllGlobals());

describe('numbers in messages', () => {
  it('writes every number in the browser\'s format, counts included, and leaves text alone', async () => {
    vi.stubGlobal('navigator', { ...navigator, language: 'de-DE' });
    const i18n = i18next.createInstance();
    await i18n.use(createNumberFormatter()).init({
      lng: 'en',
      resources: { en: { translation: { pending_one: '{{count}} pending', pending_other: '{{count}} pending', done: '{{percent}} % done by {{name}}' } } },
      interpolation: { escapeValue: false, alwaysFormat: true },
    });
    expect(i18n.t('pending', { count: 12345 })).toBe('12.345 pending');
    expect(i18n.t('pending', { count: 1 })).toBe('1 pending');
    expect(i18n.t('done', { percent: 12.5, name: 'ada 2000' })).toBe('12,5 % done by ada 2000');
    expect(formatNumber(1234.5)).toBe('1.234,5');
  });

  it('writes a percentage with its sign where the browser\'s language puts it', () => {
    vi.stubGlobal('navigator', { ...navigator, language: 'en-US' });
    expect(formatPercent(12.5, 2)).toBe('12.50%');
    vi.stubGlobal('navigator', { ...navigator, language: 'de-DE' });
    expect(formatPercent(12.5, 2)).toBe('12,50\u00a0%');
    expect(formatPercent(0, 1)).toBe('0,0\u00a0%');
  });
});
