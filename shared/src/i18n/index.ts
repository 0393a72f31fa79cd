export * from './format.js';
export * from './init-i18n.js';
export * from './language.js';
export { en, type Messages } from './locales/en.js';
