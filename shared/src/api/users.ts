import type { PasswordChangeBody } from '../contract/users.js';
import { isApiError } from './api-error.js';
import { logout } from './auth.js';
import type { QueryClient } from '@tanstack/react-query';
import { connectionOfQueryClient, pageConnection, queryClient, type ApiConnection } from './connection.js';
import { handleHttpError } from './error-handler.js';
import { apiRequest, currentCredentials } from './http-client.js';
import { getQueryKey } from './query-client.js';
import { writeToken } from './session.js';
import type { AccessToken, ApiKeyRotation, User } from './types.js';

/** GET v1/me: who the connection's credentials belong to. */
export async function fetchCurrentUser(connection: ApiConnection = pageConnection): Promise<User> {
  const { data } = await apiRequest<User>('GET', 'v1/me', { repositoryCode: 'ERROR_FETCHING_CURRENT_USER', connection });
  return data;
}

/** The signed-in user stays cached for the session; logout clears the whole cache. */
export const currentUserQuery = () => ({
  queryKey: getQueryKey('v1/me'),
  queryFn: ({ client }: { client?: QueryClient }) => fetchCurrentUser(connectionOfQueryClient(client)),
  staleTime: Number.POSITIVE_INFINITY,
});

/**
 * Loads the current user (cached). A 401 means the page's token is dead: log out (spec §6, §8);
 * an embedded page's connection has told its host instead. The logout runs after the query
 * settled: clearing the cache mid-flight would cancel it.
 */
export async function getCurrentUser(connection: ApiConnection = pageConnection): Promise<User> {
  try {
    return await connection.queryClient.fetchQuery(currentUserQuery());
  } catch (error) {
    if (isApiError(error) && error.status === 401 && connection === pageConnection) logout('unauthorized');
    throw error;
  }
}

export const peekCurrentUser = (connection: ApiConnection = pageConnection): User | undefined =>
  connection.queryClient.getQueryData<User>(currentUserQuery().queryKey);

/**
 * POST v1/me/api-key (Scholia extension): replaces the signed-in user's API key. The server ends
 * every earlier token with it, so the session goes on with the token that came back.
 */
export async function rotateApiKey(): Promise<string> {
  const { data } = await apiRequest<ApiKeyRotation>('POST', 'v1/me/api-key');
  writeToken(data.access_token);
  queryClient.setQueryData<User>(currentUserQuery().queryKey, (user) => user && { ...user, api_key: data.api_key });
  return data.api_key;
}

/** Refusals a password form shows by its fields: a wrong current password, a refused new one, too many tries. */
const PASSWORD_FORM_REFUSALS: readonly number[] = [403, 422, 429];

/**
 * PUT v1/me/password (Scholia extension): the signed-in user's new password, proven by the
 * current one. The server ends every earlier token with it, so the session goes on with the token
 * that came back. The form's own refusals (PASSWORD_FORM_REFUSALS) skip the global toasts; any
 * other failure goes through them (a dead session is still reported and ended).
 */
export async function changePassword(body: PasswordChangeBody): Promise<void> {
  const credentials = currentCredentials();
  try {
    const { data } = await apiRequest<AccessToken>('PUT', 'v1/me/password', { json: body, globalErrorHandler: false });
    writeToken(data.access_token);
  } catch (error) {
    if (isApiError(error) && !PASSWORD_FORM_REFUSALS.includes(error.status)) handleHttpError(error, { credentials });
    throw error;
  }
}
