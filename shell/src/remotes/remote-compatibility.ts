import type { RemoteEntry } from './route-remote-preload.js';

/** What the shell or a remote was built against: the @scholia/shared contract and the shared singletons. */
export interface Platform {
  contract: string;
  shared: Record<string, string>;
}

/** One version that rules a remote out: what, the remote's version, the shell's. */
export interface VersionClash {
  what: string;
  remote: string;
  shell: string;
}

/** Thrown instead of mounting a remote built against another major version; RemoteBoundary shows it. */
export class RemoteIncompatibleError extends Error {
  constructor(
    readonly remote: string,
    readonly remoteVersion: string | undefined,
    readonly clashes: VersionClash[],
  ) {
    super(`${remote} ${remoteVersion ?? ''} was built against ${clashes.map((c) => `${c.what} ${c.remote}`).join(', ')}; this Scholia has ${clashes.map((c) => `${c.what} ${c.shell}`).join(', ')}`.replace(/\s+/g, ' '));
    this.name = 'RemoteIncompatibleError';
  }
}

/** The shell's own platform, compiled in by the build; undefined where no build defined it (unit tests). */
export function shellPlatform(): Platform | undefined {
  return typeof __SCHOLIA_PLATFORM__ === 'undefined' ? undefined : __SCHOLIA_PLATFORM__;
}

/**
 * The part of a version that must match, semver-style: the major, or for 0.x the minor too
 * (0.1 and 0.2 are as far apart as 1 and 2). Undefined for something that is not a version.
 */
function compatibilityKey(version: string): string | undefined {
  const match = /^(\d+)\.(\d+)\.\d+/.exec(version.trim());
  if (!match) return undefined;
  return match[1] === '0' ? `0.${match[2]}` : match[1];
}

/**
 * A remote built against a newer minor of the contract may use an export this shell's
 * @scholia/shared lacks (a new UI kit component, a new event): the shell provides that module to
 * every remote, so it must be at least as new. Patches never add to the contract.
 */
function needsNewerContract(remote: string, shell: string): boolean {
  const minor = (version: string) => Number(/^\d+\.(\d+)\./.exec(version.trim())?.[1] ?? Number.NaN);
  return minor(remote) > minor(shell);
}

/**
 * The versions that keep `remote` from running in this shell: the contract (by major, and not
 * newer than the shell's) and every shared singleton both name, compared by major. A remote
 * without a remote.json (built before remotes carried one) has nothing to compare and mounts as before.
 */
export function findVersionClashes(remote: RemoteEntry, shell: Platform): VersionClash[] {
  const clashes: VersionClash[] = [];
  const differ = (a: string, b: string) => compatibilityKey(a) !== compatibilityKey(b);
  const compare = (what: string, remoteVersion: string | undefined, shellVersion: string | undefined, clash = differ) => {
    if (!remoteVersion || !shellVersion) return;
    if (clash(remoteVersion, shellVersion)) clashes.push({ what, remote: remoteVersion, shell: shellVersion });
  };
  compare('@scholia/shared contract', remote.contract, shell.contract, (r, s) => differ(r, s) || needsNewerContract(r, s));
  for (const [name, version] of Object.entries(remote.shared ?? {})) compare(name, version, shell.shared[name]);
  return clashes;
}
