import { useQuery } from '@tanstack/react-query';
import { datasetQuery } from '@scholia/shared/api';

/** GET /api/v1/datasets/{id} (cached 600 s). */
export function useDataset(datasetId: string | undefined) {
  return useQuery({ ...datasetQuery(datasetId ?? ''), enabled: Boolean(datasetId) });
}
