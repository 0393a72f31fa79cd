import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reloadAfterChunkError } from '../routes/chunk-reload-guard.js';
import { RemoteIncompatibleError } from './remote-compatibility.js';
import { RemoteIncompatible } from './remote-incompatible.js';
import { RemoteLoadError } from './remote-load-error.js';

interface Props {
  remote: string;
  onRetry: () => void;
  children: ReactNode;
}

interface State {
  error?: Error;
}

/**
 * Catches a remote that failed to load or crashed, so only its area shows an error.
 * Render it with `key` = remote + attempt: an unkeyed boundary keeps its error across routes.
 */
export class RemoteBoundary extends Component<Props, State> {
  override state: State = {};

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    if (error instanceof RemoteIncompatibleError) return; // reported where it was found
    // A missing expose chunk after a deployment heals with one reload (at most once per 60 s).
    if (!reloadAfterChunkError(error)) console.error(`[scholia] ${this.props.remote} failed`, error, info.componentStack);
  }

  override render() {
    if (this.state.error instanceof RemoteIncompatibleError) return <RemoteIncompatible error={this.state.error} />;
    if (this.state.error) {
      return <RemoteLoadError remote={this.props.remote} error={this.state.error} onRetry={this.props.onRetry} />;
    }
    return this.props.children;
  }
}
