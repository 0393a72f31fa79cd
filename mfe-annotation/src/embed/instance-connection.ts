import { createContext, useContext } from 'react';
import { createConnection, pageConnection, type ApiConnection, type ApiCredentials } from '@scholia/shared/api';

export interface InstanceConnectionOptions extends ApiCredentials {
  /** The API root; default `/api` of the page's origin. */
  apiBaseUrl?: string;
  onSessionExpired?: () => void;
}

/**
 * The connection of one mounted annotation page, held only in memory with a query cache of its
 * own: nothing of it reaches the browser's storage, so another tab or another embedded page can
 * neither read nor replace it.
 */
export function createInstanceConnection({ apiBaseUrl = '/api', token, apiKey, onSessionExpired }: InstanceConnectionOptions): ApiConnection {
  const credentials: ApiCredentials = { token: token || undefined, apiKey: apiKey || undefined };
  return createConnection({
    baseUrl: apiBaseUrl.endsWith('/') ? apiBaseUrl : `${apiBaseUrl}/`,
    credentials: () => credentials,
    onSessionExpired,
  });
}

const ApiConnectionContext = createContext<ApiConnection>(pageConnection);

/** Provides the connection of an annotation page to everything inside it. */
export const ApiConnectionProvider = ApiConnectionContext.Provider;

/** The connection of the annotation page this component is part of (the page's own in Scholia's shell). */
export const useApiConnection = (): ApiConnection => useContext(ApiConnectionContext);
