import type { ResolvedTheme } from './theme-preference.js';

/** Design tokens per palette, exposed as CSS custom properties `--sch-<name>`. */
export type ThemeTokens = Record<
  'bg' | 'surface' | 'surface-raised' | 'text' | 'text-muted' | 'border' | 'primary' | 'primary-text' |
  'focus' | 'danger' | 'success' | 'warning' | 'info' | 'code-bg' | 'shadow',
  string
>;

export const themeTokens: Record<ResolvedTheme, ThemeTokens> = {
  light: {
    bg: '#f6f7f9', surface: '#ffffff', 'surface-raised': '#ffffff', text: '#1c1e21', 'text-muted': '#5b6169',
    border: '#d9dce1', primary: '#3e5cc9', 'primary-text': '#ffffff', focus: '#3e5cc9', danger: '#c0392b',
    success: '#1e8449', warning: '#9a6700', info: '#2c5fa8', 'code-bg': '#f0f2f5', shadow: '0 4px 16px rgba(0,0,0,.12)',
  },
  dark: {
    bg: '#15171b', surface: '#1e2126', 'surface-raised': '#272b31', text: '#e8eaed', 'text-muted': '#a3a9b1',
    border: '#3a3f47', primary: '#8aa4ff', 'primary-text': '#0d1020', focus: '#8aa4ff', danger: '#ff7b6b',
    success: '#5fd38d', warning: '#f2c14e', info: '#7fb2ff', 'code-bg': '#111317', shadow: '0 4px 16px rgba(0,0,0,.5)',
  },
  'high-contrast': {
    bg: '#000000', surface: '#000000', 'surface-raised': '#000000', text: '#ffffff', 'text-muted': '#ffffff',
    border: '#ffffff', primary: '#ffff00', 'primary-text': '#000000', focus: '#00ffff', danger: '#ff6e6e',
    success: '#3dff7a', warning: '#ffff00', info: '#00ffff', 'code-bg': '#000000', shadow: 'none',
  },
};

/** CSS text declaring every palette; the active one is picked by `html[data-theme]`. */
export function themeStylesheet(): string {
  return (Object.keys(themeTokens) as ResolvedTheme[])
    .map((theme) => {
      const vars = Object.entries(themeTokens[theme]).map(([k, v]) => `--sch-${k}:${v};`).join('');
      const scheme = theme === 'light' ? 'light' : 'dark';
      return `html[data-theme="${theme}"]{${vars}color-scheme:${scheme};}`;
    })
    .join('\n');
}
