export * from './markdown-html.js';
