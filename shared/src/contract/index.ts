export * from './common.js';
export * from './auth.js';
export * from './users.js';
export * from './workspaces.js';
export * from './webhooks.js';
export * from './jobs.js';
