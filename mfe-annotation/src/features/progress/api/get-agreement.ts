import { datasetAgreementQuery } from '@scholia/shared/api';
import { useBusRefreshedQuery } from './use-bus-refreshed-query.js';

/** The figures cost a pass over every submitted answer of the dataset: re-read at most this often. */
export const AGREEMENT_REFRESH_MS = 30_000;

/** GET /api/v1/datasets/{id}/agreement for owners and admins (`enabled`), re-read when progress is. */
export function useDatasetAgreement(datasetId: string | undefined, enabled: boolean) {
  return useBusRefreshedQuery(datasetAgreementQuery(datasetId ?? ''), 'progress:refresh-requested', enabled ? datasetId : undefined, AGREEMENT_REFRESH_MS);
}
