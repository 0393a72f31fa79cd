/**
 * Starts downloading the current route's remote while the shell itself is still booting.
 *
 * It runs from index.ts, before share negotiation, so it imports nothing shared. Without it the
 * remote's entry is requested only once React, the router and the guard chain are up (~0.5 s
 * later on a loaded machine). The expose chunk is found in the manifest the server inlines, else
 * in the remote's mf-manifest.json; a remote without one simply gets no expose preload. Preload links are hints: a wrong guess
 * costs one download, never behaviour.
 */
import { findVersionClashes, shellPlatform } from './remote-compatibility.js';
import type { RemoteName } from './remote-manifest.js';

/** A registered remote as `/remotes.json` lists it (server/src/remotes/remote-registry.ts). */
export interface RemoteEntry {
  /** Its `remoteEntry.js`, absolute or on this origin. */
  entry: string;
  version?: string;
  buildId?: string;
  /** The @scholia/shared contract version it was built against. */
  contract?: string;
  /** Shared singleton package → the version it was built against. */
  shared?: Record<string, string>;
}

/** Remote name → the registered remote. */
export type RemoteManifest = Record<string, RemoteEntry>;

/** The dev server lists bare entry URLs; servers list objects with versions. */
function normalizeManifest(raw: Record<string, string | RemoteEntry>): RemoteManifest {
  return Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, typeof value === 'string' ? { entry: value } : value]));
}

/** What the server inlines into index.html (server/src/plugins/external/boot-manifest.ts). */
interface BootManifest {
  remotes: Record<string, string | RemoteEntry>;
  /** Remote name → URLs of its `./App` expose files. */
  app: Record<string, string[]>;
  /** The server runs with SCHOLIA_REMOTE_OVERRIDES: owners may load a remote from their dev server. */
  overrides?: boolean;
}

let manifest: Promise<RemoteManifest> | undefined;

/** The inlined manifest; absent on servers that inline nothing (the dev server). */
function readBootManifest(): BootManifest | undefined {
  const text = typeof document === 'undefined' ? undefined : document.querySelector<HTMLMetaElement>('meta[name="scholia-boot"]')?.content;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as BootManifest;
  } catch {
    return undefined;
  }
}

/** Whether this server lets owners load a remote from a dev server (remote-overrides.ts). */
export function remoteOverridesAllowed(): boolean {
  return readBootManifest()?.overrides === true;
}

/**
 * Reads the manifest once per page: inlined in index.html, else `/remotes.json` (which the
 * index.html preload serves); a failed read is forgotten so a Retry reads again. Shown
 * remotes keep the manifest of the page's load; a reload picks up new registrations.
 */
export function readRemoteManifest(fetchImpl: typeof fetch = fetch): Promise<RemoteManifest> {
  manifest ??= (async () => {
    const inlined = readBootManifest()?.remotes;
    if (inlined) return normalizeManifest(inlined);
    const response = await fetchImpl('/remotes.json');
    if (!response.ok) throw new Error(`Remote manifest unavailable (HTTP ${response.status})`);
    return normalizeManifest((await response.json()) as Record<string, string | RemoteEntry>);
  })().catch((error: unknown) => {
    manifest = undefined;
    throw error;
  });
  return manifest;
}

/** Forgets the cached manifest (tests). */
export function resetRemoteManifest(): void {
  manifest = undefined;
}

/** Which remote a first visit to `pathname` shows, mirroring the route table and guard (spec §2). */
export function remoteForPath(pathname: string, loggedIn: boolean): RemoteName | undefined {
  if (/^\/oauth\/[^/]+\/callback\/?$/.test(pathname)) return 'mfe_auth';
  if (/^\/(sign-in|welcome-hf-sign-in)\/?$/.test(pathname)) return loggedIn ? 'mfe_home' : 'mfe_auth';
  let remote: RemoteName | undefined;
  let guarded = true;
  if (pathname === '/') remote = 'mfe_home';
  else if (/^\/dataset\/[^/]+\/annotation-mode\/?$/.test(pathname)) remote = 'mfe_annotation';
  else if (/^\/dataset\/[^/]+\/settings\/?$/.test(pathname)) remote = 'mfe_settings';
  else if (/^\/user-settings\/?$/.test(pathname)) remote = undefined;
  else if (/^\/new(\/[^/]+)?\/?$/.test(pathname) || /^\/[^/]+\/?$/.test(pathname)) remote = 'mfe_hub_import';
  else guarded = false; // the 404 page
  // An anonymous visitor of a guarded route is sent to sign-in.
  return loggedIn || !guarded ? remote : 'mfe_auth';
}

function addPreload(href: string, as: 'script' | 'style'): void {
  if ([...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"]')].some((l) => l.href === href)) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.setAttribute('as', as);
  link.href = href;
  document.head.appendChild(link);
}

interface ExposeAssets {
  name: string;
  assets?: { js?: { sync?: string[] }; css?: { sync?: string[] } };
}

/** Preloads the entry and the `./App` expose of the remote the current URL will show. */
export async function preloadRouteRemote(fetchImpl: typeof fetch = fetch): Promise<void> {
  let loggedIn = false;
  try {
    loggedIn = Boolean(globalThis.localStorage?.getItem('scholia.token'));
  } catch {
    // Storage blocked: behave as anonymous.
  }
  const remote = remoteForPath(location.pathname, loggedIn);
  if (!remote) return;
  const registered = (await readRemoteManifest(fetchImpl))[remote];
  const platform = shellPlatform();
  // A remote the shell will not mount (remote-screen.tsx) is not worth a download.
  if (!registered || (platform && findVersionClashes(registered, platform).length > 0)) return;
  const { entry } = registered;
  addPreload(entry, 'script');
  const inlined = readBootManifest()?.app[remote];
  if (inlined) {
    for (const file of inlined) addPreload(new URL(file, location.href).href, file.endsWith('.css') ? 'style' : 'script');
    return;
  }
  const base = new URL('.', new URL(entry, location.href));
  const response = await fetchImpl(new URL('mf-manifest.json', base).href);
  if (!response.ok) return;
  const { exposes = [] } = (await response.json()) as { exposes?: ExposeAssets[] };
  const app = exposes.find((e) => e.name === 'App');
  for (const file of app?.assets?.js?.sync ?? []) addPreload(new URL(file, base).href, 'script');
  for (const file of app?.assets?.css?.sync ?? []) addPreload(new URL(file, base).href, 'style');
}
