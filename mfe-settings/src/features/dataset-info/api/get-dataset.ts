import { useQuery } from '@tanstack/react-query';
import { datasetQuery } from '@scholia/shared/api';

export function useDataset(datasetId: string | undefined) {
  return useQuery({ ...datasetQuery(datasetId ?? ''), enabled: Boolean(datasetId) });
}
