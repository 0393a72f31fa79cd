import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyTheme, setThemePreference, startTheme } from './apply-theme.js';
import { readThemePreference, resolveTheme } from './theme-preference.js';
import { themeStylesheet, themeTokens } from './theme-tokens.js';

function mockMatchMedia(initialDark: boolean) {
  let dark = initialDark;
  const listeners = new Set<() => void>();
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() { return query.includes('dark') && dark; },
    media: query,
    addEventListener: (_: string, fn: () => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
  }));
  return { setDark(value: boolean) { dark = value; listeners.forEach((fn) => fn()); } };
}

describe('theme', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => document.getElementById('scholia-theme-tokens')?.remove());

  it('defaults to system and resolves it from the OS', () => {
    expect(readThemePreference()).toBe('system');
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('high-contrast', true)).toBe('high-contrast');
  });

  it('saves the choice and paints it', () => {
    mockMatchMedia(false);
    setThemePreference('dark');
    expect(localStorage.getItem('scholia.theme')).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    setThemePreference('high-contrast');
    expect(document.documentElement.dataset.theme).toBe('high-contrast');
  });

  it('follows OS changes only while the preference is system', () => {
    const os = mockMatchMedia(false);
    const stop = startTheme();
    expect(document.documentElement.dataset.theme).toBe('light');
    os.setDark(true);
    expect(document.documentElement.dataset.theme).toBe('dark');
    setThemePreference('light');
    os.setDark(false);
    os.setDark(true);
    expect(document.documentElement.dataset.theme).toBe('light');
    stop();
  });

  it('ignores an invalid stored value', () => {
    localStorage.setItem('scholia.theme', 'neon');
    mockMatchMedia(true);
    expect(applyTheme(readThemePreference())).toBe('dark');
  });

  it('declares the same tokens for every palette', () => {
    const keys = Object.keys(themeTokens.light).sort();
    expect(Object.keys(themeTokens.dark).sort()).toEqual(keys);
    expect(Object.keys(themeTokens['high-contrast']).sort()).toEqual(keys);
    expect(themeStylesheet()).toContain('html[data-theme="high-contrast"]{--sch-bg:#000000;');
  });
});
