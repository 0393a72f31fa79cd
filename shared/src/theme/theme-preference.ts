/** Saved choice (spec §3 Preferences); `system` follows the OS and is the default (spec §4). */
export const THEME_PREFERENCES = ['system', 'light', 'dark', 'high-contrast'] as const;
export type ThemePreference = (typeof THEME_PREFERENCES)[number];
export type ResolvedTheme = 'light' | 'dark' | 'high-contrast';

export const DEFAULT_THEME: ThemePreference = 'system';
const STORAGE_KEY = 'scholia.theme';

export function isThemePreference(value: unknown): value is ThemePreference {
  return typeof value === 'string' && (THEME_PREFERENCES as readonly string[]).includes(value);
}

export function readThemePreference(storage: Pick<Storage, 'getItem'> | undefined = safeStorage()): ThemePreference {
  const stored = storage?.getItem(STORAGE_KEY);
  return isThemePreference(stored) ? stored : DEFAULT_THEME;
}

export function storeThemePreference(theme: ThemePreference, storage: Pick<Storage, 'setItem'> | undefined = safeStorage()): void {
  storage?.setItem(STORAGE_KEY, theme);
}

/** Turns the preference into the palette to paint; only `system` consults the OS. */
export function resolveTheme(preference: ThemePreference, osPrefersDark: boolean): ResolvedTheme {
  if (preference === 'system') return osPrefersDark ? 'dark' : 'light';
  return preference;
}

function safeStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}
