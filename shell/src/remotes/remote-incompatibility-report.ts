import { bus } from '@scholia/shared/bus';
import type { ClientErrorReport } from '@scholia/shared/contract';
import type { RemoteIncompatibleError } from './remote-compatibility.js';

const reported = new Set<string>();

/**
 * Tells everyone that a remote was not mounted: the console (developers), the bus (other parts
 * of the page, a host) and the server log (operators) through POST /api/v1/client-errors.
 * Once per remote and page: a prefetch and the screen that follows are one event.
 */
export function reportIncompatibleRemote(error: RemoteIncompatibleError, fetchImpl: typeof fetch = fetch): void {
  if (reported.has(error.remote)) return;
  reported.add(error.remote);
  console.warn(`[scholia] ${error.message}: not mounted`);
  bus.emit('remote:incompatible', { remote: error.remote, version: error.remoteVersion, clashes: error.clashes });
  const report: ClientErrorReport = {
    kind: 'remote-incompatible',
    remote: error.remote.slice(0, 64),
    message: error.message.slice(0, 500),
    details: Object.fromEntries([
      ...(error.remoteVersion ? [['version', error.remoteVersion.slice(0, 200)]] : []),
      ...error.clashes.slice(0, 15).map((c) => [c.what.slice(0, 64), `${c.remote} (shell ${c.shell})`.slice(0, 200)]),
    ]),
  };
  // keepalive: the report still leaves when the user navigates away at once.
  fetchImpl('/api/v1/client-errors', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(report), keepalive: true })
    .catch(() => {}); // the report is best effort; the page already shows the fallback
}

/** Forgets what was reported (tests). */
export function resetIncompatibilityReports(): void {
  reported.clear();
}
