export * from './app-events.js';
export * from './event-bus.js';
export * from './notify.js';
