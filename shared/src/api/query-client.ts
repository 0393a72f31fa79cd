import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { connectionOfQueryClient, pageConnection } from './connection.js';
import { apiRequest, type QueryParams, type RequestOptions } from './http-client.js';

/** Client-side lifetimes when the server sends no max-age (spec §9). */
export const CACHE_LIFETIME = { DEFAULT: 3_000, MEDIUM: 120_000, LARGE: 600_000 } as const;

/** Cache key: method, URL and params (spec §7). */
export function getQueryKey(path: string, params: QueryParams = {}): QueryKey {
  return ['GET', path, params];
}

const serverLifetimes = new Map<string, number>();

export interface CachedGetOptions extends Omit<RequestOptions, 'json' | 'form' | 'query' | 'signal' | 'connection'> {
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
    queryFn: async ({ signal, client }: { signal?: AbortSignal; client?: QueryClient }): Promise<T> => {
      const response = await apiRequest<T>('GET', path, { ...requestOptions, query: params, signal, connection: connectionOfQueryClient(client) });
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
  return pageConnection.queryClient.fetchQuery(cachedGet<T>(path, params, options));
}

/** A write; afterwards every cached GET of its connection is stale and the mounted ones refetch (spec §7). */
export async function apiWrite<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiRequest<T>(method, path, options);
  await (options.connection ?? pageConnection).queryClient.invalidateQueries({ queryKey: ['GET'] });
  return response.data;
}
