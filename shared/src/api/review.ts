import { apiWrite, cachedGet } from './query-client.js';
import type { DatasetRecord } from './types.js';

/** A record's final answer (Scholia extension, owners and admins). */
export interface RecordValidation {
  status: 'validated';
  values: Record<string, { value: unknown }>;
  validated_by: string | null;
  inserted_at: string;
  updated_at: string;
}

/** `GET /records/{id}` as owners and admins read it: every response, and the final answer once validated. */
export type ReviewedRecord = DatasetRecord & { validation?: RecordValidation };

export const reviewedRecordQuery = (id: string) =>
  cachedGet<ReviewedRecord>(`v1/records/${id}`, {}, { repositoryCode: 'ERROR_FETCHING_RECORD_BY_ID' });

export const validateRecord = (recordId: string, values: Record<string, { value: unknown }>) =>
  apiWrite<RecordValidation>('PUT', `v1/records/${recordId}/validation`, { json: { values } });

export const reopenRecord = (recordId: string) => apiWrite<RecordValidation>('DELETE', `v1/records/${recordId}/validation`);
