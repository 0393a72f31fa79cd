import { QueryClient } from '@tanstack/react-query';
import { readToken } from './session.js';

const GLOBAL_KEY = '__scholiaQueryClient__';
type Holder = { [GLOBAL_KEY]?: QueryClient };

/** A query cache with the client-wide defaults: one for the page, one per embedded connection. */
function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // The global error handler already told the user; silent retries would repeat toasts.
      queries: { retry: false, refetchOnWindowFocus: false, gcTime: 10 * 60_000 },
      mutations: { retry: false },
    },
  });
}

/** The page's one query cache; shared like the bus so every remote reads the same entries. */
export const queryClient: QueryClient = ((globalThis as Holder)[GLOBAL_KEY] ??= createQueryClient());

/** What a request is sent with: a bearer token, else an API key. */
export interface ApiCredentials {
  token?: string;
  apiKey?: string;
}

/**
 * One way to talk to a Scholia server: where, as whom, and the cache of what was read that way.
 * Scholia's own pages share the page's connection (the signed-in user of this browser); each
 * embedded annotation page has its own, so two of them on one page never borrow each other's
 * server, user or cached answers.
 */
export interface ApiConnection {
  /** The API root, ending in `/`, e.g. `https://labels.example.org/api/`. */
  readonly baseUrl: string;
  /** The credentials of the next request (read at each request: the page's user may sign in again). */
  credentials(): ApiCredentials;
  /** The cache of this connection's reads; a write marks it stale. */
  readonly queryClient: QueryClient;
  /**
   * Told once per refused token or key (401). Without it the page's bus hears
   * `session:expired` and a refused `/me` signs the page out, as in Scholia's own shell.
   */
  readonly onSessionExpired?: () => void;
}

/** The page's connection: `/api` of this origin, as the user signed in to Scholia in this browser. */
export const pageConnection: ApiConnection = {
  baseUrl: '/api/',
  credentials: () => ({ token: readToken() }),
  queryClient,
};

const connectionsByClient = new WeakMap<QueryClient, ApiConnection>();

/** A connection with a query cache of its own, whose cached reads go out through it. */
export function createConnection(options: Omit<ApiConnection, 'queryClient'>): ApiConnection {
  const connection = { ...options, queryClient: createQueryClient() };
  connectionsByClient.set(connection.queryClient, connection);
  return connection;
}

/** The connection whose cache a query runs in: a cached read goes out the way its cache was filled. */
export const connectionOfQueryClient = (client: QueryClient | undefined): ApiConnection =>
  (client && connectionsByClient.get(client)) ?? pageConnection;
