import { pageConnection, type ApiConnection } from './connection.js';
import { apiRequest } from './http-client.js';
import { apiWrite, cachedGet } from './query-client.js';
import type { AnnotationRecord } from './record-search.js';

/** A record's final answer (Scholia extension, owners and admins). */
export interface RecordValidation {
  status: 'validated';
  values: Record<string, { value: unknown }>;
  validated_by: string | null;
  /** a response of the record changed after the final answer was given */
  stale: boolean;
  inserted_at: string;
  updated_at: string;
}

/** `GET /records/{id}` as owners and admins read it: every response, and the final answer once validated. */
export type ReviewedRecord = AnnotationRecord & { validation?: RecordValidation };

export const reviewedRecordQuery = (id: string) =>
  cachedGet<ReviewedRecord>(`v1/records/${id}`, {}, { repositoryCode: 'ERROR_FETCHING_RECORD_BY_ID' });

export const validateRecord = (recordId: string, values: Record<string, { value: unknown }>, connection: ApiConnection = pageConnection) =>
  apiWrite<RecordValidation>('PUT', `v1/records/${recordId}/validation`, { json: { values }, connection });

export const reopenRecord = (recordId: string, connection: ApiConnection = pageConnection) =>
  apiWrite<RecordValidation>('DELETE', `v1/records/${recordId}/validation`, { connection });

/** How many records a bulk validation validated, and how many it left for their disagreeing answers. */
export interface BulkValidationResult {
  validated: number;
  disagreeing: number;
}

/** Validates every record of the dataset whose submitted answers agree (`POST …/records/validation/bulk`). */
export const validateAgreeingRecords = (datasetId: string, connection: ApiConnection = pageConnection) =>
  apiWrite<BulkValidationResult>('POST', `v1/datasets/${datasetId}/records/validation/bulk`, { json: {}, connection });

/** Overall record status a reviewer lists records by (`validated`: records with a final answer). */
export type ReviewStatus = 'completed' | 'validated' | 'pending';

export interface ReviewPage {
  items: { record: ReviewedRecord }[];
  total: number;
}

/**
 * Records of a dataset by overall status through the owners' and admins' search (every
 * response, the final answer), whoever answered them: one page from `offset`.
 */
export async function searchRecordsForReview(
  datasetId: string,
  status: ReviewStatus,
  page: { offset: number; limit: number },
  connection: ApiConnection = pageConnection,
): Promise<ReviewPage> {
  const { data } = await apiRequest<ReviewPage>('POST', `v1/datasets/${datasetId}/records/search`, {
    query: { include: ['responses'], offset: page.offset, limit: page.limit },
    json: { query: {}, filters: { and: [{ type: 'terms', scope: { entity: 'record', property: 'status' }, values: [status] }] } },
    repositoryCode: 'ERROR_FETCHING_RECORDS',
    connection,
  });
  return data;
}
