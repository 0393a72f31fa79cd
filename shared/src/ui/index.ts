export * from './avatar.js';
export * from './breadcrumbs.js';
export * from './copy-button.js';
export * from './tooltip.js';
export * from './use-copy.js';
export * from './remote-providers.js';
export * from './dataset-load-error.js';
