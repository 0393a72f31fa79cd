import { preloadRouteRemote } from './remotes/route-remote-preload.js';

// Fetch the route's remote in parallel with the shell's own chunks (nothing shared is imported).
preloadRouteRemote().catch(() => {});
// Async boundary: lets Module Federation negotiate shared singletons before any import runs.
void import('./bootstrap.js');
