export * from './format.js';
export * from './init-i18n.js';
export * from './language.js';
export { en, type Messages } from './locales/en.js';
export { de } from './locales/de.js';
export { es } from './locales/es.js';
