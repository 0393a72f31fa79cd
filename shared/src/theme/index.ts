export * from './apply-theme.js';
export * from './theme-preference.js';
export * from './theme-tokens.js';
