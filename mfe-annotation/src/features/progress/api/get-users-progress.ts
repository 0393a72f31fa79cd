import { datasetUsersProgressQuery } from '@scholia/shared/api';
import { useBusRefreshedQuery } from './use-bus-refreshed-query.js';

/** Counting every annotator's responses reads the whole dataset: re-read at most this often. */
export const TEAM_PROGRESS_REFRESH_MS = 5_000;

/** GET /api/v1/datasets/{id}/users/progress for owners and admins (`enabled`), re-read when progress is. */
export function useUsersProgress(datasetId: string | undefined, enabled: boolean) {
  return useBusRefreshedQuery(datasetUsersProgressQuery(datasetId ?? ''), 'progress:refresh-requested', enabled ? datasetId : undefined, TEAM_PROGRESS_REFRESH_MS);
}
