export * from './contract/index.js';
export type * from './embed/annotation-embed.js';
