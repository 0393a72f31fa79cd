import { useQuery } from '@tanstack/react-query';
import { getOAuthProviders } from '@scholia/shared/api';

export function useOAuthProviders() {
  return useQuery({ queryKey: ['GET', 'v1/oauth2/providers', {}, 'list'], queryFn: getOAuthProviders, staleTime: 600_000 });
}
