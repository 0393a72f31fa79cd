import { QueryClient } from '@tanstack/react-query';

const GLOBAL_KEY = '__scholiaQueryClient__';
type Holder = { [GLOBAL_KEY]?: QueryClient };

/** A query cache with the client-wide defaults: one for the page, one per embedded connection. */
export function createQueryClient(): QueryClient {
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
