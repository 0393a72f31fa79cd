import { useMutation } from '@tanstack/react-query';
import { getOAuthAccessToken, login } from '@scholia/shared/api';

/** Exchanges the callback's query params for a token and signs in. */
export function useOAuthCallback() {
  return useMutation({
    mutationFn: async ({ provider, params }: { provider: string; params: Record<string, string> }) => {
      const { access_token } = await getOAuthAccessToken(provider, params);
      login(access_token);
    },
  });
}
