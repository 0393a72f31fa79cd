import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { parseRemoteRegistrations, type RemoteRegistrations } from './remote-registrations.js';

/** Where a remote's registration comes from, later ones winning per remote. */
export type RemoteSource = 'build' | 'SCHOLIA_REMOTES' | 'SCHOLIA_REMOTES_FILE';

/** A remote's `remote.json`, written by the build beside its entry (scripts/build-web.mjs). */
export interface RemoteInfo {
  version?: string;
  buildId?: string;
  contract?: string;
  shared?: Record<string, string>;
}

/** One remote as `/remotes.json` and the page's boot manifest list it. */
export interface RegisteredRemote extends RemoteInfo {
  /** The remote's `remoteEntry.js`: absolute, or a path on this origin. */
  entry: string;
  /** What was registered: the entry or the remote's `mf-manifest.json`. */
  registered: string;
  source: RemoteSource;
}

export interface RemoteRegistry {
  /** Every registered remote, its entry resolved and its remote.json read. */
  describe(): Promise<Record<string, RegisteredRemote>>;
  /** Remote name → URLs of its `./App` expose files (for preloads), as far as its manifest is known. */
  appFiles(): Promise<Record<string, string[]>>;
  /** The other origins remotes load from: the Content-Security-Policy lets the page use them. */
  origins(): string[];
}

interface MfManifest {
  metaData?: { publicPath?: string; remoteEntry?: { name?: string; path?: string } };
  exposes?: { name: string; assets?: { js?: { sync?: string[] }; css?: { sync?: string[] } } }[];
}

export interface RemoteRegistryOptions {
  webDir: string;
  /** SCHOLIA_REMOTES. */
  registrations: RemoteRegistrations;
  /** SCHOLIA_REMOTES_FILE: checked at start (config.ts); re-read here whenever it changes. */
  file?: string;
  log: FastifyBaseLogger;
  fetchImpl?: typeof fetch;
}

/** A remote on another origin is asked again this long after its last answer (redeploys in place). */
const REMOTE_DOCUMENT_MAX_AGE_MS = 30_000;
const REMOTE_DOCUMENT_TIMEOUT_MS = 3_000;
const PLACEHOLDER_ORIGIN = 'http://scholia.invalid';

/** `relative` against `base`; a path on this origin stays a path. */
function resolveUrl(relative: string, base: string): string {
  const url = new URL(relative, new URL(base, PLACEHOLDER_ORIGIN));
  return url.origin === PLACEHOLDER_ORIGIN ? `${url.pathname}${url.search}` : url.href;
}

const isAbsolute = (url: string): boolean => /^https?:\/\//i.test(url);

/**
 * The remotes the shell loads: the build's `remotes.json`, then SCHOLIA_REMOTES, then the file
 * named by SCHOLIA_REMOTES_FILE, per remote. The build's file and the registrations file are read
 * when they change, so a redeploy or a rollback needs no restart. Manifests and remote.json files
 * on this origin are read from the build folder; on another origin they are fetched and kept for
 * REMOTE_DOCUMENT_MAX_AGE_MS (an older answer is used while a newer one is fetched).
 */
export function createRemoteRegistry({ webDir: givenWebDir, registrations, file, log, fetchImpl = fetch }: RemoteRegistryOptions): RemoteRegistry {
  const webDir = path.resolve(givenWebDir);
  let fileState: { stamp: string; registrations: RemoteRegistrations } | undefined;
  let builtState: { stamp: string; registrations: RemoteRegistrations } | undefined;
  const remoteDocuments = new Map<string, { value: unknown; fetchedAt: number; pending?: Promise<unknown> }>();

  // Files are compared by stat, so each request costs a stat, not a read (the CSP asks on every one).
  function stampOf(target: string): string | undefined {
    try {
      const stat = fs.statSync(target);
      return `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch {
      return undefined;
    }
  }

  function fileRegistrations(): RemoteRegistrations {
    if (!file) return {};
    const stamp = stampOf(file);
    // Gone (a deploy replacing it): keep serving what it said last.
    if (!stamp) return fileState?.registrations ?? {};
    if (fileState?.stamp === stamp) return fileState.registrations;
    try {
      const next = parseRemoteRegistrations(fs.readFileSync(file, 'utf8'), `SCHOLIA_REMOTES_FILE (${file})`);
      fileState = { stamp, registrations: next };
      log.info({ remotes: next }, 'remote registrations read from SCHOLIA_REMOTES_FILE');
    } catch (error) {
      // Half-written or wrong: the last good registrations stay until the file is fixed.
      log.error(`${(error as Error).message}; keeping the previous registrations`);
      fileState = { stamp, registrations: fileState?.registrations ?? {} };
    }
    return fileState.registrations;
  }

  function builtRegistrations(): RemoteRegistrations {
    const builtFile = path.join(webDir, 'remotes.json');
    const stamp = stampOf(builtFile);
    if (builtState && builtState.stamp === stamp) return builtState.registrations;
    const built = stamp ? readLocalJson(builtFile) : undefined;
    const next = typeof built === 'object' && built !== null
      ? Object.fromEntries(Object.entries(built).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
      : {};
    // Half-written during a deploy: not remembered, so the next request reads it again.
    if (stamp && built !== undefined) builtState = { stamp, registrations: next };
    return next;
  }

  function current(): Record<string, { registered: string; source: RemoteSource }> {
    const merged: Record<string, { registered: string; source: RemoteSource }> = {};
    const layers: [RemoteSource, RemoteRegistrations][] = [['build', builtRegistrations()], ['SCHOLIA_REMOTES', registrations], ['SCHOLIA_REMOTES_FILE', fileRegistrations()]];
    for (const [source, layer] of layers) for (const [name, registered] of Object.entries(layer)) merged[name] = { registered, source };
    return merged;
  }

  function readLocalJson(file: string): unknown {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      return undefined; // missing or half-written during a deploy
    }
  }

  async function fetchJson(url: string): Promise<unknown> {
    try {
      const response = await fetchImpl(url, { signal: AbortSignal.timeout(REMOTE_DOCUMENT_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return await response.json();
    } catch (error) {
      log.warn(`remote file ${url} unavailable: ${(error as Error).message}`);
      return undefined;
    }
  }

  /** A JSON file of a remote: from the build folder when on this origin, else fetched (cached). */
  async function readDocument(url: string): Promise<unknown> {
    if (!isAbsolute(url)) {
      let local: string;
      try {
        local = path.join(webDir, path.normalize(decodeURIComponent(url.split('?')[0])));
      } catch {
        return undefined; // a malformed escape in the build's remotes.json: nothing to read
      }
      return local.startsWith(webDir + path.sep) ? readLocalJson(local) : undefined;
    }
    const cached = remoteDocuments.get(url);
    const fresh = cached && Date.now() - cached.fetchedAt < REMOTE_DOCUMENT_MAX_AGE_MS;
    if (cached && (fresh || cached.pending)) return cached.value;
    const pending = fetchJson(url).then((value) => {
      remoteDocuments.set(url, { value, fetchedAt: Date.now() });
      return value;
    });
    if (cached) {
      remoteDocuments.set(url, { ...cached, pending });
      return cached.value;
    }
    remoteDocuments.set(url, { value: undefined, fetchedAt: 0, pending });
    return pending;
  }

  /** The entry, manifest and chunk base of a registration. */
  async function resolve(registered: string): Promise<{ entry: string; manifest?: MfManifest; chunkBase: string }> {
    const isManifest = new URL(registered, PLACEHOLDER_ORIGIN).pathname.endsWith('.json');
    const manifestUrl = isManifest ? registered : resolveUrl('mf-manifest.json', registered);
    const manifest = (await readDocument(manifestUrl)) as MfManifest | undefined;
    const remoteEntry = manifest?.metaData?.remoteEntry;
    const entry = isManifest ? resolveUrl(`${remoteEntry?.path ? `${remoteEntry.path.replace(/\/?$/, '/')}` : ''}${remoteEntry?.name ?? 'remoteEntry.js'}`, manifestUrl) : registered;
    const publicPath = manifest?.metaData?.publicPath;
    const chunkBase = publicPath && publicPath !== 'auto' ? resolveUrl(publicPath, manifestUrl) : resolveUrl('.', manifestUrl);
    return { entry, manifest, chunkBase };
  }

  const resolvedOrigins = new Map<string, string[]>();

  return {
    async describe() {
      const remotes: Record<string, RegisteredRemote> = {};
      await Promise.all(Object.entries(current()).map(async ([name, { registered, source }]) => {
        const { entry, chunkBase } = await resolve(registered);
        resolvedOrigins.set(registered, [entry, chunkBase].filter(isAbsolute).map((url) => new URL(url).origin));
        const info = ((await readDocument(resolveUrl('remote.json', entry))) ?? {}) as RemoteInfo;
        remotes[name] = {
          entry, registered, source,
          version: typeof info.version === 'string' ? info.version : undefined,
          buildId: typeof info.buildId === 'string' ? info.buildId : undefined,
          contract: typeof info.contract === 'string' ? info.contract : undefined,
          shared: typeof info.shared === 'object' && info.shared !== null ? info.shared : undefined,
        };
      }));
      // Sorted: the same registrations always give the same answer.
      return Object.fromEntries(Object.entries(remotes).sort(([a], [b]) => a.localeCompare(b)));
    },

    async appFiles() {
      const files: Record<string, string[]> = {};
      await Promise.all(Object.entries(current()).map(async ([name, { registered }]) => {
        const { manifest, chunkBase } = await resolve(registered);
        const assets = manifest?.exposes?.find((e) => e.name === 'App')?.assets;
        if (assets) files[name] = [...assets.js?.sync ?? [], ...assets.css?.sync ?? []].map((f) => resolveUrl(f, chunkBase));
      }));
      return files;
    },

    origins() {
      const origins = new Set<string>();
      for (const { registered } of Object.values(current())) {
        if (isAbsolute(registered)) origins.add(new URL(registered).origin);
        for (const origin of resolvedOrigins.get(registered) ?? []) origins.add(origin);
      }
      return [...origins].sort();
    },
  };
}
