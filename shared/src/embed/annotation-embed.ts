/**
 * The annotation remote's embedding contract (`mfe_annotation`, `./App` and `./lifecycles`),
 * version 1: fields are only ever added; a change that breaks a host makes a version 2. Types
 * only, so a host imports them without loading any of Scholia's code.
 */

/** The interface languages the remote speaks. */
export type AnnotationLanguage = 'en' | 'de' | 'es';

/** A record as the annotator sees it: their own response's status, or `pending` without one. */
export type AnnotationRecordStatus = 'pending' | 'draft' | 'submitted' | 'discarded';

/** Every event the remote reports, through `onEvent` and on the page's shared bus (`annotation:<type>`). */
export type AnnotationEvent =
  /** A record is on screen (focus mode). */
  | { type: 'record-shown'; datasetId: string; recordId: string; status: AnnotationRecordStatus }
  /**
   * The annotator's response was stored: `keptOffline` when it waits in the browser for the
   * network (sent automatically later, for this user only).
   */
  | { type: 'response-submitted'; datasetId: string; recordId: string; status: 'submitted'; keptOffline: boolean }
  | { type: 'response-drafted'; datasetId: string; recordId: string; status: 'draft'; keptOffline: boolean }
  | { type: 'response-discarded'; datasetId: string; recordId: string; status: 'discarded'; keptOffline: boolean }
  /** The dataset's progress as last read from the server. */
  | { type: 'progress-changed'; datasetId: string; total: number; completed: number; pending: number }
  /** The credentials were refused (401): once per token. The host should sign the user in again and pass a new one. */
  | { type: 'session-expired' }
  /** The remote could not load its screen (`status` 0: server unreachable). */
  | { type: 'load-failed'; datasetId?: string; status?: number; message: string };

export type AnnotationEventType = AnnotationEvent['type'];

/**
 * Props of `./App` (React hosts sharing React 19 as a singleton). Without `apiBaseUrl`, `token`
 * and `apiKey` it uses the page's own origin and the user signed in to Scholia there.
 */
export interface AnnotationAppProps {
  /** The dataset to annotate; without one the remote says no dataset was selected. */
  datasetId?: string;
  /** Interface language; default: the language saved by Scholia in this browser, else English. */
  language?: AnnotationLanguage;
  /**
   * Where the keyboard shortcuts listen: `remote` (default) only while focus is inside the
   * remote; `page` on the whole page, for a host that gives the remote the whole screen.
   */
  shortcutScope?: 'remote' | 'page';
  /** Called for each event; an error it throws is caught and logged. */
  onEvent?: (event: AnnotationEvent) => void;
  /** API root, e.g. `https://labels.example.org/api` (default `/api`, the page's own origin). */
  apiBaseUrl?: string;
  /** Bearer token of the annotator (from the host's backend, `POST /api/v1/token`). */
  token?: string;
  /** The annotator's API key, sent as `X-Argilla-Api-Key`, when the host uses keys instead of tokens. */
  apiKey?: string;
  /** `light` or `dark`; default: the page's own theme. */
  theme?: 'light' | 'dark';
  /**
   * Follows a link to one of Scholia's own pages ("Dataset settings", "Back to home"), e.g. by
   * opening `https://labels.example.org${target.path}`. Without it, in a host with no router of
   * Scholia's, those links are not shown.
   */
  onNavigate?: (target: AnnotationNavigationTarget) => void;
}

/** Mount props of `./lifecycles` (single-spa). */
export interface AnnotationMountProps extends AnnotationAppProps {
  /** Element the remote renders into (single-spa passes it). */
  domElement?: HTMLElement;
}

/** What single-spa adds to the props it passes each lifecycle. */
export interface SingleSpaLifecycleProps {
  name: string;
}

/**
 * The `./lifecycles` module: what the factory of `container.get('./lifecycles')` returns, for
 * single-spa's `registerApplication` or `mountRootParcel`.
 */
export interface AnnotationLifecycles {
  bootstrap(props: AnnotationMountProps & SingleSpaLifecycleProps): Promise<unknown>;
  mount(props: AnnotationMountProps & SingleSpaLifecycleProps): Promise<unknown>;
  /** New props for a mounted instance (single-spa calls it for parcels: `parcel.update(props)`). */
  update(props: AnnotationMountProps & SingleSpaLifecycleProps): Promise<unknown>;
  unmount(props: AnnotationMountProps & SingleSpaLifecycleProps): Promise<unknown>;
}

/**
 * The `./App` module. `Node` is what the host's React renders (`ReactNode`), so
 * `loadRemote<AnnotationAppModule<ReactNode>>('mfe_annotation/App')` gives a component.
 */
export interface AnnotationAppModule<Node = unknown> {
  App: (props: AnnotationAppProps) => Node;
}

/** A page of Scholia's own web app the remote links to; `path` is its path on the Scholia server. */
export type AnnotationNavigationTarget =
  | { page: 'dataset-settings'; datasetId: string; path: string }
  | { page: 'home'; path: string };
