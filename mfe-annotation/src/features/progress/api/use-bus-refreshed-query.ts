import { useQuery, useQueryClient, type QueryFunction } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { bus } from '@scholia/shared/bus';

/** At most one re-read per this interval; the last request of a burst is always honoured. */
export const REFRESH_INTERVAL_MS = 1000;

type RefreshEvent = 'progress:refresh-requested' | 'metrics:refresh-requested';

interface CachedGetOptions<T> {
  queryKey: readonly unknown[];
  queryFn: QueryFunction<T>;
}

/**
 * A shared cached GET (progress, metrics) that this screen re-reads when the bus asks for it,
 * throttled. Each answer asks for a refresh; re-reading both after every submit made the server
 * run two counting queries per record, in competition with the next submit (bench: Submit →
 * next record). Its own cache key keeps the shared client's immediate invalidation from
 * refetching it; the first refresh of a burst runs at once, the rest within the interval.
 */
export function useBusRefreshedQuery<T>(options: CachedGetOptions<T>, event: RefreshEvent, datasetId: string | undefined, intervalMs = REFRESH_INTERVAL_MS) {
  const queryClient = useQueryClient();
  const queryKey = useMemo(() => ['annotation-view', ...options.queryKey], [JSON.stringify(options.queryKey)]); // eslint-disable-line react-hooks/exhaustive-deps
  const throttle = useRef<{ last: number; timer?: ReturnType<typeof setTimeout> }>({ last: 0 });
  useEffect(() => {
    const state = throttle.current;
    const onRefresh = ({ datasetId: changed }: { datasetId: string }) => {
      if (changed !== datasetId || state.timer) return;
      const wait = Math.max(0, state.last + intervalMs - Date.now());
      state.timer = setTimeout(() => {
        state.timer = undefined;
        state.last = Date.now();
        void queryClient.refetchQueries({ queryKey, exact: true });
      }, wait);
    };
    bus.on(event, onRefresh);
    return () => {
      bus.off(event, onRefresh);
      clearTimeout(state.timer);
      state.timer = undefined;
    };
  }, [datasetId, event, intervalMs, queryClient, queryKey]);
  return useQuery({ queryKey, queryFn: options.queryFn as QueryFunction<T>, enabled: Boolean(datasetId) });
}
