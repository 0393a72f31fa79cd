import { datasetProgressQuery } from '@scholia/shared/api';
import { useBusRefreshedQuery } from './use-bus-refreshed-query.js';

/** GET /api/v1/datasets/{id}/progress, re-read (throttled) whenever someone asks for a progress refresh. */
export function useDatasetProgress(datasetId: string | undefined) {
  return useBusRefreshedQuery(datasetProgressQuery(datasetId ?? ''), 'progress:refresh-requested', datasetId);
}
