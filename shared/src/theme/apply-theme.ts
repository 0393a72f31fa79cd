import { bus } from '../bus/event-bus.js';
import {
  readThemePreference, resolveTheme, storeThemePreference, type ResolvedTheme, type ThemePreference,
} from './theme-preference.js';
import { themeStylesheet } from './theme-tokens.js';

const DARK_QUERY = '(prefers-color-scheme: dark)';
const STYLE_ID = 'scholia-theme-tokens';

function osPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches;
}

/** Paints the preference on `<html data-theme>` and returns the palette used. */
export function applyTheme(preference: ThemePreference, root: HTMLElement = document.documentElement): ResolvedTheme {
  const resolved = resolveTheme(preference, osPrefersDark());
  root.dataset.theme = resolved;
  root.dataset.themePreference = preference;
  return resolved;
}

/** Saves, paints and announces a new choice. */
export function setThemePreference(preference: ThemePreference): ResolvedTheme {
  storeThemePreference(preference);
  const resolved = applyTheme(preference);
  bus.emit('theme:changed', { theme: preference });
  return resolved;
}

/**
 * Boots theming: injects the token sheet, paints the saved preference and repaints when the
 * OS scheme changes while the preference is `system`. Returns the unsubscribe function.
 */
export function startTheme(doc: Document = document): () => void {
  if (!doc.getElementById(STYLE_ID)) {
    const style = doc.createElement('style');
    style.id = STYLE_ID;
    style.textContent = themeStylesheet();
    doc.head.appendChild(style);
  }
  applyTheme(readThemePreference(), doc.documentElement);
  if (typeof matchMedia !== 'function') return () => {};
  const media = matchMedia(DARK_QUERY);
  const onChange = () => {
    if (readThemePreference() === 'system') applyTheme('system', doc.documentElement);
  };
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}
