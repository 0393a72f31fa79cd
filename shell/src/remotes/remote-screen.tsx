import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { lazy, Suspense, useMemo, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { RemoteBoundary } from './remote-boundary.js';
import { findVersionClashes, RemoteIncompatibleError, shellPlatform } from './remote-compatibility.js';
import { reportIncompatibleRemote } from './remote-incompatibility-report.js';
import { ensureRemotesRegistered, type RemoteName } from './remote-manifest.js';
import { remoteOverrideFor } from './remote-overrides.js';

type ScreenProps = Record<string, unknown>;

/**
 * Remotes whose App has loaded (usually prefetched while the guard ran): RemoteScreen renders
 * them at once. Through Suspense, React held the screen back ~0.3 s after its fallback showed.
 */
const loadedApps = new Map<RemoteName, ComponentType<ScreenProps>>();

async function loadRemoteApp(remote: RemoteName): Promise<{ default: ComponentType<ScreenProps> }> {
  const manifest = await ensureRemotesRegistered();
  const override = await remoteOverrideFor(remote);
  // An owner's dev server (SCHOLIA_REMOTE_OVERRIDES): its build is theirs to keep compatible.
  if (override) registerRemotes([{ name: remote, entry: override }], { force: true });
  // Checked before the remote's code runs: a remote built against another major version of the
  // contract or of a shared singleton could break the page, not just its own area.
  const platform = shellPlatform();
  const registered = manifest[remote];
  const clashes = platform && registered && !override ? findVersionClashes(registered, platform) : [];
  if (clashes.length > 0) {
    const error = new RemoteIncompatibleError(remote, registered?.version, clashes);
    reportIncompatibleRemote(error);
    throw error;
  }
  // loadRemote, not import(): a failed import() never recovers, loadRemote does (recipe §5).
  const module = await loadRemote<{ App: ComponentType<ScreenProps> }>(`${remote}/App`);
  if (!module?.App) throw new Error(`${remote}/App has no App export`);
  loadedApps.set(remote, module.App);
  return { default: module.App };
}

/** Starts loading a remote's App early; errors surface later, when RemoteScreen loads it. */
export function prefetchRemote(remote: RemoteName): void {
  loadRemoteApp(remote).catch(() => {});
}

export interface RemoteScreenProps {
  remote: RemoteName;
  props?: ScreenProps;
}

/** Mounts a remote's `./App` in its own error boundary, with Retry that really re-loads. */
export function RemoteScreen({ remote, props = {} }: RemoteScreenProps) {
  const { t } = useTranslation();
  const [attempt, setAttempt] = useState(0);
  // `attempt` is a dependency on purpose: each Retry needs a fresh lazy component.
  const App = useMemo(() => (attempt === 0 ? loadedApps.get(remote) : undefined) ?? lazy(() => loadRemoteApp(remote)), [remote, attempt]);
  return (
    <RemoteBoundary key={`${remote}:${attempt}`} remote={remote} onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={<div className="sch-loading" aria-busy="true">{t('common.loading')}</div>}>
        <App {...props} />
      </Suspense>
    </RemoteBoundary>
  );
}
