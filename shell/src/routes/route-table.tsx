import { Component, lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  matchRoutes, useLocation, useNavigate, useNavigationType, useParams, useRoutes, type Location, type RouteObject,
} from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { datasetQuery, myDatasetsQuery, myWorkspacesQuery, queryClient } from '@scholia/shared/api';
import { bus } from '@scholia/shared/bus';
import type { Crumb } from '@scholia/shared/ui';
import { AnnotationLayout, AuthLayout, HomeLayout, InternalLayout } from '../layouts/layouts.js';
import { NotFoundPage, RouteErrorPage } from '../pages/error-page.js';
import type { RemoteName } from '../remotes/remote-manifest.js';
import { RemoteOverrideBanner } from '../chrome/remote-override-banner.js';
import { prefetchRemote, RemoteScreen } from '../remotes/remote-screen.js';
import { browserGuardServices } from '../session/guard-services.js';
import { DeferredToaster } from '../toasts/deferred-toaster.js';
import { Booting } from '../chrome/booting.js';
import { DEFAULT_CHAIN, runGuardChain, type GuardOutcome, type GuardServices } from './guard-chain.js';
import { PUBLIC_ROUTES, SIGN_IN_PATH, type RouteName } from './route-names.js';

type QueryOptions = Parameters<typeof queryClient.prefetchQuery>[0];

/** The home screen's first queries (mfe-home reads them from the one shared query cache). */
const homeQueries = (): QueryOptions[] => [myDatasetsQuery(), myWorkspacesQuery()];

/**
 * My settings is the one screen of the shell's own that no first visit needs: its code loads
 * when its guard starts (handle.preload), not before the home page's first render.
 */
let loadedUserSettingsPage: ComponentType | undefined;
const loadUserSettingsPage = () => import('../pages/user-settings-page.js').then((m) => {
  loadedUserSettingsPage = m.UserSettingsPage;
  return { default: m.UserSettingsPage };
});
const LazyUserSettingsPage = lazy(loadUserSettingsPage);

/** What a route of the table needs before it renders (its `handle`). */
export interface RouteGuard {
  name: RouteName;
  /** Remote fetched while the guard talks to the server. */
  remote?: RemoteName;
  /** Queries started once the guard lets the user in. */
  queries?: () => QueryOptions[];
  /** Re-run the guard on a path change only, not when only the query changes. */
  pathOnly?: boolean;
  /** Starts loading the route's lazy code while the guard runs; errors surface on render. */
  preload?: () => Promise<unknown>;
}

type UrlLike = Pick<Location, 'pathname' | 'search' | 'hash'>;

/**
 * Runs the guard chain for a route about to render. Once the guard lets the user in, the
 * route's first queries start: otherwise they wait for the remote's code to arrive and render
 * (home: ~0.2 s later on a busy machine).
 */
export async function runRouteGuard(
  guard: RouteGuard, url: UrlLike, services: GuardServices = browserGuardServices,
): Promise<GuardOutcome> {
  // Fetch the route's remote while the guard talks to the server: it saves a round trip
  // on every first visit (bench: home first render).
  if (guard.remote && services.isLoggedIn()) prefetchRemote(guard.remote);
  guard.preload?.().catch(() => {});
  const outcome = await runGuardChain(DEFAULT_CHAIN, {
    name: guard.name,
    path: url.pathname,
    fullPath: `${url.pathname}${url.search}${url.hash}`,
    query: Object.fromEntries(new URLSearchParams(url.search)),
  }, services);
  if (outcome) return outcome;
  for (const query of guard.queries?.() ?? []) void queryClient.prefetchQuery(query);
  return undefined;
}

/** The route the location lands on and the guard it needs. */
function guardOf(location: Location): RouteGuard | undefined {
  return matchRoutes(routes, location)?.at(-1)?.route.handle as RouteGuard | undefined;
}

/**
 * Which guard run a location needs: two locations with the same key share one run. A route
 * without a guard renders at once. The guard depends on the path and the session, not on the
 * query, except on the sign-in and OAuth callback routes: a path-only route keeps its run while
 * only the query changes (the annotation page moves through records with `?page=`, and each
 * step waited for an async round); the others run the guard on every navigation. A sign-out
 * still navigates through the bus (ShellRoot), which runs the guard.
 */
function guardKey(location: Location, guard: RouteGuard | undefined): string | undefined {
  if (!guard) return undefined;
  return guard.pathOnly ? `${guard.name} ${location.pathname}` : `${guard.name} ${location.key}`;
}

/** Like the data router, a navigation to a hash of the page shown runs no guard. */
function hashChangeOnly(from: Location, to: Location): boolean {
  return from.pathname === to.pathname && from.search === to.search && to.hash !== '';
}

interface Settled {
  key: string | undefined;
  location: Location;
  error?: unknown;
}

/**
 * Renders the route table once the guard chain of spec §2 has let the location in. Until then
 * the previous screen stays (the first visit shows <Booting />); a redirect replaces the
 * location asked for (the first visit keeps it in the history, like the data router did); a
 * failing step (unknown step: 500 'Unknown middleware') shows the error page.
 */
export function GuardedRoutes({ services = browserGuardServices }: { services?: GuardServices }) {
  const location = useLocation();
  const navigationType = useNavigationType();
  const navigate = useNavigate();
  const guard = guardOf(location);
  const key = guardKey(location, guard);
  const [settled, setSettled] = useState<Settled | undefined>(() => (key === undefined ? { key, location } : undefined));
  const ready = settled !== undefined && (settled.key === key || (guard !== undefined && hashChangeOnly(settled.location, location)));
  // The first run starts with the first render, as the data router's loaders did, not after it:
  // the current-user call leaves while React commits <Booting />.
  const [firstRun] = useState(() => {
    if (!guard || key === undefined) return undefined;
    const outcome = runRouteGuard(guard, location, services);
    outcome.catch(() => {}); // handled by the effect below
    return { key, outcome };
  });
  const firstRunUsed = useRef(false);

  useLayoutEffect(() => {
    if (ready) return;
    if (!guard) {
      setSettled({ key, location });
      return;
    }
    let cancelled = false;
    const outcome = firstRun && !firstRunUsed.current && firstRun.key === key ? firstRun.outcome : runRouteGuard(guard, location, services);
    firstRunUsed.current = true;
    outcome.then((outcome) => {
      if (cancelled) return;
      if (outcome) void navigate(outcome.redirect, { replace: navigationType !== 'POP' });
      else setSettled({ key, location });
    }, (error: unknown) => {
      if (!cancelled) setSettled({ key, location, error });
    });
    return () => {
      cancelled = true;
    };
    // `key` stands for the location and its guard: one run per key.
  }, [key, ready]);

  // Ready: the current location (a query change on a path-only route needs no new run).
  const shown = ready ? location : settled?.location;
  const error = ready ? settled.error : undefined;
  if (error !== undefined) return <RouteErrorPage error={error} />;
  if (!shown) return <Booting />;
  return <RouteErrorBoundary location={shown}><RouteTable location={shown} /></RouteErrorBoundary>;
}

function RouteTable({ location }: { location: Location }) {
  return useRoutes(routes, location);
}

/** Render crashes of a route show the error page until the next navigation. */
export class RouteErrorBoundary extends Component<{ location?: Location; children: ReactNode }, { error?: unknown; location?: Location }> {
  override state: { error?: unknown; location?: Location } = {};
  static getDerivedStateFromError(error: unknown) {
    // A thrown null or undefined still shows the error page (its message: errors.unknown).
    return { error: error ?? null };
  }
  static getDerivedStateFromProps(props: { location?: Location }, state: { error?: unknown; location?: Location }) {
    if (props.location !== state.location) return { error: undefined, location: props.location };
    return null;
  }
  override render() {
    if (this.state.error !== undefined) return <RouteErrorPage error={this.state.error} />;
    return this.props.children;
  }
}

/** The shell inside a router: the guarded route table and the toasts. */
export function ShellRoot() {
  const navigate = useNavigate();
  const location = useLocation();
  const shown = useRef(location);
  shown.current = location;
  useEffect(() => {
    const onSignedOut = () => {
      // A public screen stays: the OAuth callback, mid-exchange, must outlive a stale token's 401.
      const name = guardOf(shown.current)?.name;
      if (!name || !PUBLIC_ROUTES.includes(name)) void navigate(SIGN_IN_PATH);
    };
    bus.on('session:signed-out', onSignedOut);
    return () => bus.off('session:signed-out', onSignedOut);
  }, [navigate]);
  return (
    <RouteErrorBoundary location={location}>
      <RemoteOverrideBanner />
      <GuardedRoutes />
      <DeferredToaster />
    </RouteErrorBoundary>
  );
}

function useHomeCrumb(): Crumb {
  const { t } = useTranslation();
  return { label: t('nav.home'), to: '/' };
}

function DatasetCrumbs({ id, last, children, annotation }: { id?: string; last?: string; children: ReactNode; annotation?: boolean }) {
  const home = useHomeCrumb();
  const { data } = useQuery({ ...datasetQuery(id ?? ''), enabled: Boolean(id) });
  const crumbs: Crumb[] = [home, { label: data?.name ?? '…', to: last && id ? `/dataset/${id}/annotation-mode` : undefined }];
  if (last) crumbs.push({ label: last });
  return annotation
    ? <AnnotationLayout crumbs={crumbs}>{children}</AnnotationLayout>
    : <InternalLayout crumbs={crumbs}>{children}</InternalLayout>;
}

function AnnotationRoute() {
  const { id } = useParams();
  return <DatasetCrumbs id={id} annotation><RemoteScreen remote="mfe_annotation" props={{ datasetId: id, shortcutScope: 'page' }} /></DatasetCrumbs>;
}

function DatasetSettingsRoute() {
  const { id } = useParams();
  const { t } = useTranslation();
  return <DatasetCrumbs id={id} last={t('nav.settings')}><RemoteScreen remote="mfe_settings" props={{ datasetId: id }} /></DatasetCrumbs>;
}

function HubImportRoute() {
  const { id } = useParams();
  const home = useHomeCrumb();
  const repoId = id ? safeDecode(id) : undefined;
  return (
    <InternalLayout crumbs={[home, { label: repoId ?? '' }]}>
      <RemoteScreen remote="mfe_hub_import" props={{ repoId }} />
    </InternalLayout>
  );
}

function UserSettingsRoute() {
  // Usually loaded while its guard ran (handle.preload): rendered at once, else through Suspense.
  const UserSettingsPage = loadedUserSettingsPage ?? LazyUserSettingsPage;
  const home = useHomeCrumb();
  const { t } = useTranslation();
  return <InternalLayout crumbs={[home, { label: t('nav.mySettings') }]}><Suspense fallback={<Booting />}><UserSettingsPage /></Suspense></InternalLayout>;
}

function AuthRoute({ screen }: { screen: 'sign-in' | 'welcome-hf-sign-in' | 'oauth-callback' }) {
  const { provider } = useParams();
  return <AuthLayout><RemoteScreen remote="mfe_auth" props={{ screen, provider }} /></AuthLayout>;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Route table of spec §2; `/:id` (hub import) is the last real route, then the 404. */
export const routes: RouteObject[] = [
  { id: 'home', path: '/', handle: { name: 'home', remote: 'mfe_home', queries: homeQueries, pathOnly: true } satisfies RouteGuard,
    element: <HomeLayout><RemoteScreen remote="mfe_home" /></HomeLayout> },
  { id: 'sign-in', path: '/sign-in', handle: { name: 'sign-in' } satisfies RouteGuard, element: <AuthRoute screen="sign-in" /> },
  { id: 'welcome-hf-sign-in', path: '/welcome-hf-sign-in', handle: { name: 'welcome-hf-sign-in' } satisfies RouteGuard,
    element: <AuthRoute screen="welcome-hf-sign-in" /> },
  { id: 'user-settings', path: '/user-settings', handle: { name: 'user-settings', pathOnly: true, preload: loadUserSettingsPage } satisfies RouteGuard,
    element: <UserSettingsRoute /> },
  { id: 'new-dataset', path: '/new/:id?', handle: { name: 'new-dataset', remote: 'mfe_hub_import', pathOnly: true } satisfies RouteGuard,
    element: <HubImportRoute /> },
  { id: 'annotation-mode', path: '/dataset/:id?/annotation-mode',
    handle: { name: 'annotation-mode', remote: 'mfe_annotation', pathOnly: true } satisfies RouteGuard, element: <AnnotationRoute /> },
  { id: 'dataset-settings', path: '/dataset/:id?/settings',
    handle: { name: 'dataset-settings', remote: 'mfe_settings', pathOnly: true } satisfies RouteGuard, element: <DatasetSettingsRoute /> },
  { id: 'oauth-provider-callback', path: '/oauth/:provider?/callback', handle: { name: 'oauth-provider-callback' } satisfies RouteGuard,
    element: <AuthRoute screen="oauth-callback" /> },
  { id: 'hub-import', path: '/:id', handle: { name: 'hub-import', remote: 'mfe_hub_import', pathOnly: true } satisfies RouteGuard,
    element: <HubImportRoute /> },
  { id: 'not-found', path: '*', element: <NotFoundPage /> },
];
