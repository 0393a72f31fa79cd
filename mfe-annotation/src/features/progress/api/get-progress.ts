import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { datasetProgressQuery } from '@scholia/shared/api';
import { bus } from '@scholia/shared/bus';

/** GET /api/v1/datasets/{id}/progress, refetched whenever someone asks for a progress refresh. */
export function useDatasetProgress(datasetId: string | undefined) {
  const queryClient = useQueryClient();
  const options = datasetProgressQuery(datasetId ?? '');
  useEffect(() => {
    const onRefresh = ({ datasetId: changed }: { datasetId: string }) => {
      if (changed === datasetId) void queryClient.invalidateQueries({ queryKey: options.queryKey });
    };
    bus.on('progress:refresh-requested', onRefresh);
    return () => bus.off('progress:refresh-requested', onRefresh);
  }, [datasetId, queryClient, options.queryKey]);
  return useQuery({ ...options, enabled: Boolean(datasetId) });
}
