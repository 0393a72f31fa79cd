/** Toast look and placement: six positions, default bottom-left (clear of a form's actions). */
export type ToastType = 'info' | 'success' | 'warning' | 'danger';
export type ToastPosition = 'top-right' | 'top' | 'top-left' | 'bottom-right' | 'bottom' | 'bottom-left';

import type { AnnotationEvent } from '../embed/annotation-embed.js';

export interface ToastRequest {
  message: string;
  type?: ToastType;
  position?: ToastPosition;
  /** Wait while another toast is visible instead of stacking. */
  queue?: boolean;
  /**
   * `page` (default): about the screen it was raised on, closed when the user goes to another
   * route. `app`: about the whole app (offline, back online), kept across routes.
   */
  scope?: 'page' | 'app';
}

/**
 * Every event that crosses a micro-frontend boundary. Names are noun + past verb
 * (house style); payloads are plain data so the plain-HTML host can emit them too.
 */
export type AppEvents = {
  'session:signed-in': { token: string };
  'session:signed-out': { reason: 'user' | 'unauthorized' };
  /** The server refused the page's token or key (401); once per token or key. */
  'session:expired': undefined;
  'toast:requested': ToastRequest;
  'toasts:cleared': undefined;
  /** Ask every view showing this dataset's progress to re-read it (spec §4: after each response). */
  'progress:refresh-requested': { datasetId: string };
  'metrics:refresh-requested': { datasetId: string };
  'dataset:changed': { datasetId: string };
  'language:changed': { language: string };
  'theme:changed': { theme: string };
  'remote:load-failed': { remote: string; message: string };
  /**
   * The shell did not mount a remote built against another major version of the contract or of
   * a shared singleton (`clashes`: what, the remote's version, the shell's); its area says so.
   */
  'remote:incompatible': { remote: string; version?: string; clashes: { what: string; remote: string; shell: string }[] };
  /** A dataset is gone (settings' danger zone); lists that show it drop it. */
  'dataset:deleted': { datasetId: string };
} & {
  /** What the annotation remote reports to its host (also its `onEvent` prop). */
  [E in AnnotationEvent as `annotation:${E['type']}`]: E;
};

export type AppEventName = keyof AppEvents;
