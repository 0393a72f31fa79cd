import { bus } from '../bus/event-bus.js';
import { apiRequest, buildUrl } from './http-client.js';
import { queryClient } from './connection.js';
import { fetchCached } from './query-client.js';
import { writeToken } from './session.js';
import type { AccessToken, Items, OAuthProvider } from './types.js';

/** POST v1/token, form-encoded (spec §5). Errors are the caller's: the form shows its own message. */
export async function createToken(username: string, password: string): Promise<AccessToken> {
  const { data } = await apiRequest<AccessToken>('POST', 'v1/token', {
    form: { username, password },
    globalErrorHandler: false,
    repositoryCode: 'ERROR_SIGNING_IN',
  });
  return data;
}

/** Providers configured on the server; a failure gives an empty list (spec §8). */
export async function getOAuthProviders(): Promise<OAuthProvider[]> {
  try {
    const data = await fetchCached<Items<OAuthProvider>>('v1/oauth2/providers', {}, {
      globalErrorHandler: false,
      repositoryCode: 'ERROR_FETCHING_OAUTH_PROVIDERS',
    });
    return data.items;
  } catch {
    return [];
  }
}

/** Where the browser goes to start an OAuth sign-in, with the current query passed through. */
export function oauthAuthenticationUrl(provider: string, search: string): string {
  const base = buildUrl(`v1/oauth2/providers/${encodeURIComponent(provider)}/authentication`);
  const query = search.startsWith('?') ? search.slice(1) : search;
  return query ? `${base}?${query}` : base;
}

/** Exchanges the provider's callback params for our token. */
export async function getOAuthAccessToken(provider: string, params: Record<string, string>): Promise<AccessToken> {
  const { data } = await apiRequest<AccessToken>(
    'GET', `v1/oauth2/providers/${encodeURIComponent(provider)}/access-token`,
    { query: params, repositoryCode: 'ERROR_FETCHING_OAUTH_ACCESS_TOKEN' },
  );
  return data;
}

/** Login = logout first, then set the token (spec §4), so no cache of the last user survives. */
export function login(token: string): void {
  logout('user', { silent: true });
  writeToken(token);
  bus.emit('session:signed-in', { token });
}

export function logout(reason: 'user' | 'unauthorized' = 'user', options: { silent?: boolean } = {}): void {
  writeToken(undefined);
  queryClient.clear();
  if (!options.silent) bus.emit('session:signed-out', { reason });
}
