import { RouteError } from './route-error.js';
import { HOME_PATH, PUBLIC_ROUTES, SIGN_IN_PATH, WELCOME_PATH, type RouteName } from './route-names.js';

/** What the chain knows about the target route. */
export interface GuardRoute {
  name: RouteName;
  /** Path without query, e.g. `/dataset/1/settings`. */
  path: string;
  /** Path with query and hash, what redirectTo stores. */
  fullPath: string;
  query: Record<string, string>;
}

/** Side effects the steps need; injected so the rules are testable without a browser. */
export interface GuardServices {
  isLoggedIn(): boolean;
  isHubSpace(): Promise<boolean>;
  storeRedirectTo(fullPath: string): void;
  hasCurrentUser(): boolean;
  /** Loads `/me`; resolves false when the server said 401 (the user is then logged out). */
  loadCurrentUser(): Promise<boolean>;
  /** The signed-in user's role, once `/me` is loaded. */
  currentRole(): string | undefined;
  setupLanguage(): Promise<void>;
}

export type GuardOutcome = { redirect: string } | undefined;
export type Middleware = (route: GuardRoute, services: GuardServices) => GuardOutcome | Promise<GuardOutcome>;

/** Route guard rules of spec §2. */
export const routeGuard: Middleware = async (route, services) => {
  const loggedIn = services.isLoggedIn();
  switch (route.name) {
    case 'sign-in': {
      if (loggedIn) return { redirect: HOME_PATH };
      if (route.query.omitCTA) return undefined;
      if (await services.isHubSpace()) return { redirect: withQuery(WELCOME_PATH, route.query) };
      return undefined;
    }
    case 'oauth-provider-callback':
      return Object.keys(route.query).length === 0 ? { redirect: HOME_PATH } : undefined;
    case 'welcome-hf-sign-in':
      if (loggedIn || !(await services.isHubSpace())) return { redirect: HOME_PATH };
      return undefined;
    default:
      if (PUBLIC_ROUTES.includes(route.name) || loggedIn) return undefined;
      if (route.path !== HOME_PATH) services.storeRedirectTo(route.fullPath);
      return { redirect: SIGN_IN_PATH };
  }
};

/**
 * Loads the current user only when logged in and not loaded yet (spec §4). A 401 has logged the
 * user out, who is then anonymous: like the route guard, keep the page asked for as redirectTo,
 * so an expired token does not lose the deep link; a public screen stays.
 */
export const loadCurrentUser: Middleware = async (route, services) => {
  if (!services.isLoggedIn()) return undefined;
  if (services.hasCurrentUser() || (await services.loadCurrentUser())) return keepCreationToCreators(route, services);
  // A public screen goes on anonymous: the OAuth callback is about to sign the user in again.
  if (PUBLIC_ROUTES.includes(route.name)) return undefined;
  if (route.path !== HOME_PATH) services.storeRedirectTo(route.fullPath);
  return { redirect: SIGN_IN_PATH };
};

/** Screens that create datasets (hub import); annotators may not create any, so they go home. */
const CREATION_ROUTES: readonly RouteName[] = ['hub-import', 'new-dataset'];

function keepCreationToCreators(route: GuardRoute, services: GuardServices): GuardOutcome {
  return CREATION_ROUTES.includes(route.name) && services.currentRole() === 'annotator' ? { redirect: HOME_PATH } : undefined;
}

export const setupLanguage: Middleware = async (_route, services) => {
  await services.setupLanguage();
  return undefined;
};

export const MIDDLEWARES: Readonly<Record<string, Middleware>> = {
  'route-guard': routeGuard,
  'current-user': loadCurrentUser,
  language: setupLanguage,
};

/** The three steps run before every route, in this order (spec §2). */
export const DEFAULT_CHAIN = ['route-guard', 'current-user', 'language'] as const;

/** Runs the steps in order; the first redirect wins. An unknown step is a 500. */
export async function runGuardChain(
  chain: readonly string[],
  route: GuardRoute,
  services: GuardServices,
  registry: Readonly<Record<string, Middleware>> = MIDDLEWARES,
): Promise<GuardOutcome> {
  for (const step of chain) {
    const middleware = Object.hasOwn(registry, step) ? registry[step] : undefined;
    if (!middleware) throw new RouteError(500, 'Unknown middleware');
    const outcome = await middleware(route, services);
    if (outcome) return outcome;
  }
  return undefined;
}

function withQuery(path: string, query: Record<string, string>): string {
  const search = new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
}
