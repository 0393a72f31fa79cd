export * from './contract/index.js';
export * from './embed/annotation-embed.js';
