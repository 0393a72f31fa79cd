import { useQuery } from '@tanstack/react-query';
import { myDatasetsQuery } from '@scholia/shared/api';

/** GET /api/v1/me/datasets (all workspaces; filtering happens client-side). */
export function useMyDatasets() {
  return useQuery(myDatasetsQuery());
}
