import { getCurrentUser } from '@scholia/shared/api';
import { remoteOverridesAllowed } from './route-remote-preload.js';

/**
 * Remote name → entry URL of a dev server, set by its developer (npm run dev:remote prints how).
 * Local storage, so it is this browser's alone; honoured only when the server runs with
 * SCHOLIA_REMOTE_OVERRIDES and for an owner, and only for entries on localhost.
 */
export const REMOTE_OVERRIDES_KEY = 'scholia.remoteOverrides';

const DEV_SERVER_ENTRY = /^http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?\/[^?#]*\.js$/;

/** The stored overrides that point at a dev server on this machine; none when the server allows none. */
export function readRemoteOverrides(): Record<string, string> {
  if (!remoteOverridesAllowed()) return {};
  let stored: unknown;
  try {
    stored = JSON.parse(globalThis.localStorage?.getItem(REMOTE_OVERRIDES_KEY) ?? '{}');
  } catch {
    return {};
  }
  if (typeof stored !== 'object' || stored === null) return {};
  return Object.fromEntries(Object.entries(stored).filter((entry): entry is [string, string] =>
    typeof entry[1] === 'string' && DEV_SERVER_ENTRY.test(entry[1])));
}

/** The dev server entry `remote` loads from for this user, if any: owners only. */
export async function remoteOverrideFor(remote: string, currentUser = getCurrentUser): Promise<string | undefined> {
  const entry = readRemoteOverrides()[remote];
  if (!entry) return undefined;
  try {
    return (await currentUser()).role === 'owner' ? entry : undefined;
  } catch {
    return undefined; // not signed in: the registered remote
  }
}

export function clearRemoteOverrides(): void {
  globalThis.localStorage?.removeItem(REMOTE_OVERRIDES_KEY);
}
