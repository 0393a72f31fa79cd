import mitt, { type Emitter } from 'mitt';
import type { AppEvents } from './app-events.js';

const GLOBAL_KEY = '__scholiaBus__';

type BusHolder = { [GLOBAL_KEY]?: Emitter<AppEvents> };

/**
 * The one event bus of the page. Module Federation shares `@scholia/shared/bus` as a singleton;
 * the global is a second line of defence for hosts that load a remote with its own copy
 * (the plain single-spa page), so shell and remotes still meet on one emitter.
 */
export const bus: Emitter<AppEvents> = ((globalThis as BusHolder)[GLOBAL_KEY] ??= mitt<AppEvents>());
