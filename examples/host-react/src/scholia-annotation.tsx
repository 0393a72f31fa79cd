import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { Component, lazy, Suspense, useMemo, type ComponentType, type ReactNode } from 'react';
// Outside Scholia's repository, copy shared/src/embed/annotation-embed.ts (types only) and import from it.
import type { AnnotationAppModule, AnnotationAppProps } from '@scholia/shared';

/**
 * Registers the annotation remote from the manifest its server publishes, read at run time: a
 * new Scholia version needs no rebuild of the portal.
 */
function loadAnnotationApp(serverUrl: string): Promise<{ default: ComponentType<AnnotationAppProps> }> {
  registerRemotes([{ name: 'mfe_annotation', entry: new URL('/remotes/mfe-annotation/mf-manifest.json', serverUrl).href }]);
  return loadRemote<AnnotationAppModule<ReactNode>>('mfe_annotation/App').then((module) => {
    if (!module) throw new Error('the annotation remote did not load');
    return { default: module.App };
  });
}

/** When the remote's files themselves cannot be loaded (the server is down), the portal shows its fallback. */
class RemoteBoundary extends Component<{ onUnavailable: (error: unknown) => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    this.props.onUnavailable(error);
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

export interface ScholiaAnnotationProps extends AnnotationAppProps {
  /** The Scholia server's origin, e.g. `https://labels.example.org`. */
  serverUrl: string;
  onUnavailable: (error: unknown) => void;
}

/** Scholia's annotation screen for one dataset, talking to its server with the annotator's token. */
const loaded = new Map<string, ReturnType<typeof loadAnnotationApp>>();

/** The remote of one server, loaded once however many instances the page shows. */
function annotationAppOf(serverUrl: string): ReturnType<typeof loadAnnotationApp> {
  let app = loaded.get(serverUrl);
  if (!app) loaded.set(serverUrl, (app = loadAnnotationApp(serverUrl)));
  return app;
}

export function ScholiaAnnotation({ serverUrl, onUnavailable, ...props }: ScholiaAnnotationProps) {
  const Annotation = useMemo(() => lazy(() => annotationAppOf(serverUrl)), [serverUrl]);
  return (
    <RemoteBoundary onUnavailable={onUnavailable}>
      <Suspense fallback={<p>Loading the labelling screen…</p>}>
        <Annotation apiBaseUrl={new URL('/api', serverUrl).href} {...props} />
      </Suspense>
    </RemoteBoundary>
  );
}
