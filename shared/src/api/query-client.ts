import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { apiRequest, type QueryParams, type RequestOptions } from './http-client.js';

/** Client-side lifetimes when the server sends no max-age (spec §9). */
export const CACHE_LIFETIME = { DEFAULT: 3_000, MEDIUM: 120_000, LARGE: 600_000 } as const;

const GLOBAL_KEY = '__scholiaQueryClient__';
type Holder = { [GLOBAL_KEY]?: QueryClient };

/** The page's one query cache; shared like the bus so every remote reads the same entries. */
export const queryClient: QueryClient = ((globalThis as Holder)[GLOBAL_KEY] ??= new QueryClient({
  defaultOptions: {
    // The global error handler already told the user; silent retries would repeat toasts.
    queries: { retry: false, refetchOnWindowFocus: false, gcTime: 10 * 60_000 },
    mutations: { retry: false },
  },
}));

/** Cache key: method, URL and params (spec §7). */
export function getQueryKey(path: string, params: QueryParams = {}): QueryKey {
  return ['GET', path, params];
}

const serverLifetimes = new Map<string, number>();

export interface CachedGetOptions extends Omit<RequestOptions, 'json' | 'form' | 'query' | 'signal'> {
  lifetime?: number;
}

/**
 * Query options for a cached GET, usable with `useQuery` and `queryClient.fetchQuery`.
 * A `max-age` from the server wins over the call's default lifetime; `no-cache` disables it.
 */
export function cachedGet<T>(path: string, params: QueryParams = {}, options: CachedGetOptions = {}) {
  const { lifetime = CACHE_LIFETIME.DEFAULT, ...requestOptions } = options;
  const queryKey = getQueryKey(path, params);
  const hash = JSON.stringify(queryKey);
  return {
    queryKey,
    queryFn: async ({ signal }: { signal?: AbortSignal }): Promise<T> => {
      const response = await apiRequest<T>('GET', path, { ...requestOptions, query: params, signal });
      if (response.noCache) serverLifetimes.set(hash, 0);
      else if (response.maxAgeSeconds !== undefined) serverLifetimes.set(hash, response.maxAgeSeconds * 1000);
      else serverLifetimes.delete(hash);
      return response.data;
    },
    staleTime: () => serverLifetimes.get(hash) ?? lifetime,
  };
}

/** Runs a cached GET outside React. */
export function fetchCached<T>(path: string, params: QueryParams = {}, options: CachedGetOptions = {}): Promise<T> {
  return queryClient.fetchQuery(cachedGet<T>(path, params, options));
}

/** A write; afterwards every cached GET is stale and the mounted ones refetch (spec §7). */
export async function apiWrite<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiRequest<T>(method, path, options);
  await queryClient.invalidateQueries({ queryKey: ['GET'] });
  return response.data;
}
