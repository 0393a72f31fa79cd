import { registerRemotes } from '@module-federation/enhanced/runtime';
import { readRemoteManifest, type RemoteManifest } from './route-remote-preload.js';

export type { RemoteEntry, RemoteManifest } from './route-remote-preload.js';

export const REMOTE_NAMES = ['mfe_auth', 'mfe_home', 'mfe_annotation', 'mfe_settings', 'mfe_hub_import'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

let pending: Promise<RemoteManifest> | undefined;

/**
 * Reads the manifest once per page and registers the remotes with the MF runtime, so a remote
 * can ship a new version without a shell rebuild. A failed read is forgotten so Retry re-reads.
 */
export function ensureRemotesRegistered(fetchImpl: typeof fetch = fetch): Promise<RemoteManifest> {
  pending ??= (async () => {
    // One read per page, shared with the boot-time preload (index.ts); default cache mode so the
    // <link rel=preload> in index.html is reused; the server sends no-cache.
    const manifest = await readRemoteManifest(fetchImpl);
    registerRemotes(Object.entries(manifest).map(([name, { entry }]) => ({ name, entry })));
    return manifest;
  })().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}
