import { apiRequest } from './http-client.js';
import { apiWrite, cachedGet } from './query-client.js';
import type { DatasetRecord, Job, RecordResponse, ResponseStatus } from './types.js';

export interface RecordSearchBody {
  query?: {
    text?: { q: string; field?: string };
    vector?: { name: string; record_id?: string; value?: number[]; max_results?: number; order?: 'most_similar' | 'least_similar' };
  };
  filters?: { and: unknown[] };
  sort?: { scope: Record<string, unknown>; order: 'asc' | 'desc' }[];
}

export interface RecordSearchResult {
  items: { record: DatasetRecord; query_score: number | null }[];
  total: number;
}

/** Search of the caller's queue; `offset` is the page start minus 1 (spec §9). */
export async function searchMyRecords(datasetId: string, body: RecordSearchBody, page: { offset: number; limit: number }) {
  const { data } = await apiRequest<RecordSearchResult>('POST', `v1/me/datasets/${datasetId}/records/search`, {
    query: { include: ['responses', 'suggestions'], offset: page.offset, limit: page.limit },
    json: body,
    repositoryCode: 'ERROR_FETCHING_RECORDS',
  });
  return data;
}

export const recordQuery = (id: string) =>
  cachedGet<DatasetRecord>(`v1/records/${id}`, {}, { repositoryCode: 'ERROR_FETCHING_RECORD_BY_ID' });

export interface ResponseBody {
  status: ResponseStatus;
  values?: Record<string, { value: unknown }> | null;
}

export const createResponse = (recordId: string, body: ResponseBody) =>
  apiWrite<RecordResponse>('POST', `v1/records/${recordId}/responses`, { json: body, repositoryCode: 'ERROR_CREATING_RECORD_RESPONSE' });
export const updateResponse = (id: string, body: ResponseBody) =>
  apiWrite<RecordResponse>('PUT', `v1/responses/${id}`, { json: body, repositoryCode: 'ERROR_UPDATING_RECORD_RESPONSE' });
export const deleteResponse = (id: string) =>
  apiWrite<RecordResponse>('DELETE', `v1/responses/${id}`, { repositoryCode: 'ERROR_DELETING_RECORD_RESPONSE' });

export interface BulkResponseResult {
  items: { item: RecordResponse | null; error: { detail: string } | null }[];
}

export const bulkUpsertResponses = (items: (ResponseBody & { record_id: string })[]) =>
  apiWrite<BulkResponseResult>('POST', 'v1/me/responses/bulk', { json: { items }, repositoryCode: 'ERROR_CREATING_RECORD_RESPONSE_BULK' });

/** A failed lookup counts as a failed job (spec §8). */
export async function getJob(id: string): Promise<Job> {
  try {
    const { data } = await apiRequest<Job>('GET', `v1/jobs/${id}`, { globalErrorHandler: false });
    return data;
  } catch {
    return { id, status: 'failed' };
  }
}
