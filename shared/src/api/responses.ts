import { bus } from '../bus/event-bus.js';
import { pageConnection, type ApiConnection } from './connection.js';
import { apiRequest } from './http-client.js';
import type { RecordResponse, ResponseStatus } from './types.js';

/** `{question_name: {value}}` (contract §3.7). */
export type ResponseValueMap = Record<string, { value: unknown }>;

export interface MyResponseBody {
  status: ResponseStatus;
  values: ResponseValueMap | null;
}

export interface RequestBehaviour {
  /** false: the caller reports the error itself (offline queue, bulk per-record errors). */
  globalErrorHandler?: boolean;
  /** The server and user to write to and as; default the page's. */
  connection?: ApiConnection;
}

/**
 * Creates the caller's response, or replaces it when one exists (spec §4: with an existing
 * response update it, without one create it). Values are replaced, never merged (contract §2.10).
 */
export async function saveMyResponse(
  recordId: string,
  existingId: string | undefined,
  body: MyResponseBody,
  behaviour: RequestBehaviour = {},
): Promise<RecordResponse> {
  const { data } = existingId
    ? await apiRequest<RecordResponse>('PUT', `v1/responses/${existingId}`, { json: body, repositoryCode: 'ERROR_UPDATING_RECORD_RESPONSE', ...behaviour })
    : await apiRequest<RecordResponse>('POST', `v1/records/${recordId}/responses`, { json: body, repositoryCode: 'ERROR_CREATING_RECORD_RESPONSE', ...behaviour });
  return data;
}

/** Deletes the caller's response (Clear); only call it when one exists (spec §4). */
export async function deleteMyResponse(id: string, behaviour: RequestBehaviour = {}): Promise<RecordResponse> {
  const { data } = await apiRequest<RecordResponse>('DELETE', `v1/responses/${id}`, { repositoryCode: 'ERROR_DELETING_RECORD_RESPONSE', ...behaviour });
  return data;
}

export interface MyResponsesBulkItem extends MyResponseBody {
  record_id: string;
}

export interface MyResponsesBulkResult {
  items: { item: RecordResponse | null; error: { detail: string } | null }[];
}

/** Upserts up to 100 of the caller's responses; per-item failures come back as `error.detail` (contract §2.10). */
export async function upsertMyResponses(items: MyResponsesBulkItem[], behaviour: RequestBehaviour = {}): Promise<MyResponsesBulkResult> {
  const { data } = await apiRequest<MyResponsesBulkResult>('POST', 'v1/me/responses/bulk', {
    json: { items },
    repositoryCode: 'ERROR_CREATING_RECORD_RESPONSE_BULK',
    ...behaviour,
  });
  return data;
}

/**
 * After each response: progress and metrics are stale (spec §4). Marks their cache entries stale
 * without waiting for the refetch, and tells every view (any remote) to re-read them.
 */
export function announceResponsesChanged(datasetId: string, connection: ApiConnection = pageConnection): void {
  void connection.queryClient.invalidateQueries({ queryKey: ['GET', `v1/datasets/${datasetId}/progress`] });
  void connection.queryClient.invalidateQueries({ queryKey: ['GET', `v1/me/datasets/${datasetId}/metrics`] });
  bus.emit('progress:refresh-requested', { datasetId });
  bus.emit('metrics:refresh-requested', { datasetId });
}
