import { registerRemotes } from '@module-federation/enhanced/runtime';

/** Remote name → entry URL, as written by the build to `/remotes.json`. */
export type RemoteManifest = Record<string, string>;

export const REMOTE_NAMES = ['mfe_auth', 'mfe_home', 'mfe_annotation', 'mfe_settings', 'mfe_hub_import'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

let pending: Promise<RemoteManifest> | undefined;

/**
 * Reads the manifest once per page and registers the remotes with the MF runtime, so a remote
 * can ship a new version without a shell rebuild. A failed read is forgotten so Retry re-reads.
 */
export function ensureRemotesRegistered(fetchImpl: typeof fetch = fetch): Promise<RemoteManifest> {
  pending ??= (async () => {
    // Default cache mode so the <link rel=preload> in index.html is reused; the server sends no-cache.
    const response = await fetchImpl('/remotes.json');
    if (!response.ok) throw new Error(`Remote manifest unavailable (HTTP ${response.status})`);
    const manifest = (await response.json()) as RemoteManifest;
    registerRemotes(Object.entries(manifest).map(([name, entry]) => ({ name, entry })));
    return manifest;
  })().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}
