import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { createQueryClient, queryClient as pageQueryClient } from './page-query-client.js';
import { readToken } from './session.js';

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
  queryClient: pageQueryClient,
};

export interface InstanceConnectionOptions extends ApiCredentials {
  /** The API root; default `/api` of the page's origin. */
  apiBaseUrl?: string;
  onSessionExpired?: () => void;
}

const connectionsByClient = new WeakMap<QueryClient, ApiConnection>();

/**
 * A connection held only in memory, with a query cache of its own: nothing of it reaches the
 * browser's storage, so another tab or another embedded page cannot read or replace it.
 */
export function createInstanceConnection({ apiBaseUrl = '/api', token, apiKey, onSessionExpired }: InstanceConnectionOptions): ApiConnection {
  const credentials: ApiCredentials = { token: token || undefined, apiKey: apiKey || undefined };
  const connection: ApiConnection = {
    baseUrl: apiBaseUrl.endsWith('/') ? apiBaseUrl : `${apiBaseUrl}/`,
    credentials: () => credentials,
    queryClient: createQueryClient(),
    onSessionExpired,
  };
  connectionsByClient.set(connection.queryClient, connection);
  return connection;
}

/** The connection whose cache a query runs in: a cached read goes out the way its cache was filled. */
export const connectionOfQueryClient = (client: QueryClient | undefined): ApiConnection =>
  (client && connectionsByClient.get(client)) ?? pageConnection;

const ApiConnectionContext = createContext<ApiConnection>(pageConnection);

/** Provides the connection of an embedded page to everything inside it. */
export const ApiConnectionProvider = ApiConnectionContext.Provider;

/** The connection of the page this component is part of. */
export const useApiConnection = (): ApiConnection => useContext(ApiConnectionContext);
