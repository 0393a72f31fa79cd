import { apiRequest } from './http-client.js';
import { queryClient } from './connection.js';
import { apiWrite, cachedGet, CACHE_LIFETIME } from './query-client.js';
import type { Dataset, DatasetMetrics, DatasetProgress, Distribution, Items, Job, UsersProgress } from './types.js';

export const myDatasetsQuery = (params: { workspace_id?: string } = {}) =>
  cachedGet<Items<Dataset>>('v1/me/datasets', params, { repositoryCode: 'ERROR_FETCHING_FEEDBACK_DATASETS' });

/** Cached 600 s (spec §7). */
export const datasetQuery = (id: string) =>
  cachedGet<Dataset>(`v1/datasets/${id}`, {}, { lifetime: CACHE_LIFETIME.LARGE, repositoryCode: 'ERROR_FETCHING_DATASET_INFO' });

/** Spec §8 files a failed progress fetch under ERROR_DELETING_DATASET; kept for parity. */
export const datasetProgressQuery = (id: string) =>
  cachedGet<DatasetProgress>(`v1/datasets/${id}/progress`, {}, { repositoryCode: 'ERROR_DELETING_DATASET' });

/** Each annotator's counts (what the SDK's `progress(with_users_distribution=True)` reads); silent on failure. */
export const datasetUsersProgressQuery = (id: string) =>
  cachedGet<UsersProgress>(`v1/datasets/${id}/users/progress`, {}, { globalErrorHandler: false });

/** A failed metrics fetch is silent (spec §8). */
export const datasetMetricsQuery = (id: string) =>
  cachedGet<DatasetMetrics>(`v1/me/datasets/${id}/metrics`, {}, { globalErrorHandler: false });

export interface CreateDatasetBody {
  name: string;
  workspace_id: string;
  metadata?: { repoId: string; subset: string; split: string; mapping: unknown; imported: 'UI' };
}

export const createDataset = (body: CreateDatasetBody) =>
  apiWrite<Dataset>('POST', 'v1/datasets', { json: body, repositoryCode: 'ERROR_CREATING_DATASET' });

export interface UpdateDatasetBody {
  allow_extra_metadata?: boolean;
  guidelines?: string | null;
  distribution?: Distribution;
}

export const updateDataset = (id: string, body: UpdateDatasetBody) =>
  apiWrite<Dataset>('PATCH', `v1/datasets/${id}`, { json: body, repositoryCode: 'ERROR_PATCHING_DATASET_GUIDELINES' });

export const publishDataset = (id: string) =>
  apiWrite<Dataset>('PUT', `v1/datasets/${id}/publish`, { repositoryCode: 'ERROR_PUBLISHING_DATASET' });

/** true when a cached GET belongs to the dataset (its own path or one nested under it). */
function isDatasetQuery(queryKey: readonly unknown[], id: string): boolean {
  const path = typeof queryKey[1] === 'string' ? queryKey[1] : '';
  return path.includes(`datasets/${id}`);
}

/**
 * Only 200 counts as deleted (spec §7). The deleted dataset's cached GETs are dropped rather than
 * refetched: refetching them would only answer 404 and show an error toast.
 */
export async function deleteDataset(id: string): Promise<boolean> {
  const response = await apiRequest<Dataset>('DELETE', `v1/datasets/${id}`, { repositoryCode: 'ERROR_DELETING_DATASET' });
  const deleted = response.status === 200;
  if (deleted) {
    await queryClient.cancelQueries({ predicate: (query) => isDatasetQuery(query.queryKey, id) });
    queryClient.removeQueries({ predicate: (query) => isDatasetQuery(query.queryKey, id) });
  }
  await queryClient.invalidateQueries({ queryKey: ['GET'] });
  return deleted;
}

/** Reads the progress from the server, never from cache: for checks right before a write. */
export const fetchFreshDatasetProgress = (id: string) =>
  queryClient.fetchQuery({ ...datasetProgressQuery(id), staleTime: 0 });

/** true when anybody ever responded in the dataset, which freezes its distribution (spec §4). */
export async function hasUserResponses(id: string): Promise<boolean> {
  const progress = await fetchFreshDatasetProgress(id);
  return progress.users.length > 0 || progress.completed > 0;
}

export interface ImportDatasetBody {
  name: string;
  subset: string;
  split: string;
  mapping: { fields: { source: string; target: string }[]; metadata?: unknown[]; suggestions?: unknown[]; external_id?: string | null };
}

export const importDataset = (id: string, body: ImportDatasetBody) =>
  apiWrite<Job>('POST', `v1/datasets/${id}/import`, { json: body, repositoryCode: 'ERROR_IMPORTING_DATASET' });

export interface ExportDatasetBody {
  name: string;
  subset?: string;
  split?: string;
  private?: boolean;
  token: string;
}

export const exportDataset = (id: string, body: ExportDatasetBody) =>
  apiWrite<Job>('POST', `v1/datasets/${id}/export`, { json: body, repositoryCode: 'ERROR_EXPORTING_DATASET' });
