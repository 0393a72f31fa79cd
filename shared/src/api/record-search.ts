import type { ApiConnection } from './connection.js';
import { apiRequest } from './http-client.js';
import type { DatasetRecord, RecordResponse } from './types.js';

/** Search scope (contract §4.2): which keys matter depends on `entity`. */
export interface SearchScope {
  entity: 'record' | 'metadata' | 'suggestion' | 'response';
  property?: string | null;
  metadata_property?: string | null;
  question?: string | null;
}

export type SearchFilterValue = string | number | boolean;

export type SearchFilter =
  | { type: 'terms'; scope: SearchScope; values: SearchFilterValue[] }
  | { type: 'range'; scope: SearchScope; ge?: number | string | null; le?: number | string | null };

export interface SearchSort {
  scope: SearchScope;
  order: 'asc' | 'desc';
}

export interface SearchVectorQuery {
  name: string;
  record_id: string;
  order: 'most_similar' | 'least_similar';
  /** Sent for parity with the reference frontend; the server caps results itself (contract §4.2). */
  max_results?: number;
}

/** Body of `POST /me/datasets/{id}/records/search` (contract §4.2). */
export interface AnnotationSearchBody {
  query?: { text?: { q: string; field?: string | null }; vector?: SearchVectorQuery };
  filters?: { and: SearchFilter[] };
  sort?: SearchSort[];
}

/** A suggestion embedded in a record (contract §3.8). */
export interface RecordSuggestion {
  id: string;
  question_id: string;
  type: 'model' | 'human' | null;
  value: unknown;
  agent: string | null;
  score: number | number[] | null;
}

/** A record as the annotation search returns it: only the caller's response (contract §4.3). */
export interface AnnotationRecord extends DatasetRecord {
  responses?: RecordResponse[];
  suggestions?: RecordSuggestion[];
}

export interface AnnotationSearchHit {
  record: AnnotationRecord;
  query_score: number | null;
}

export interface AnnotationSearchResult {
  items: AnnotationSearchHit[];
  total: number;
}

export interface AnnotationSearchOptions {
  signal?: AbortSignal;
  /** false for background buffering, whose failures are ignored (spec §4 queue). */
  globalErrorHandler?: boolean;
  /** The server and user whose queue it is; default the page's. */
  connection?: ApiConnection;
}

/**
 * The caller's queue with their response and the suggestions (spec §7); `offset` is the page
 * start minus 1. Never cached: the queue owns its records.
 */
export async function searchAnnotationRecords(
  datasetId: string,
  body: AnnotationSearchBody,
  page: { offset: number; limit: number },
  options: AnnotationSearchOptions = {},
): Promise<AnnotationSearchResult> {
  const { data } = await apiRequest<AnnotationSearchResult>('POST', `v1/me/datasets/${datasetId}/records/search`, {
    query: { include: ['responses', 'suggestions'], offset: page.offset, limit: page.limit },
    json: { query: {}, ...body },
    signal: options.signal,
    globalErrorHandler: options.globalErrorHandler,
    connection: options.connection,
    repositoryCode: 'ERROR_FETCHING_RECORDS',
  });
  return data;
}
