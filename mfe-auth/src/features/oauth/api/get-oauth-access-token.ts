import { useMutation } from '@tanstack/react-query';
import { getOAuthAccessToken, login } from '@scholia/shared/api';

/**
 * Exchanges the callback's query params for a token and signs in. Resolves to the username the
 * server gave instead of the provider's, when that one was taken by another account.
 */
export function useOAuthCallback() {
  return useMutation({
    mutationFn: async ({ provider, params }: { provider: string; params: Record<string, string> }) => {
      const { access_token, assigned_username } = await getOAuthAccessToken(provider, params);
      login(access_token);
      return assigned_username;
    },
  });
}
