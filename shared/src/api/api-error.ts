/** Repository codes of spec §8: which call failed, independent of the HTTP status. */
export type RepositoryCode =
  | 'ERROR_FETCHING_FEEDBACK_DATASETS' | 'ERROR_FETCHING_WORKSPACES' | 'ERROR_FETCHING_DATASET_INFO'
  | 'ERROR_CREATING_DATASET' | 'ERROR_FETCHING_WORKSPACE_INFO' | 'ERROR_PATCHING_DATASET_GUIDELINES'
  | 'ERROR_DELETING_DATASET' | 'ERROR_FETCHING_DATASET_PROGRESS' | 'ERROR_PUBLISHING_DATASET'
  | 'ERROR_IMPORTING_DATASET' | 'ERROR_EXPORTING_DATASET' | 'GET_AGENTS' | 'ERROR_FETCHING_FIELDS'
  | 'ERROR_PATCHING_FIELDS' | 'ERROR_FETCHING_QUESTIONS' | 'ERROR_PATCHING_QUESTIONS' | 'ERROR_FETCHING_VECTORS'
  | 'ERROR_PATCHING_VECTORS' | 'ERROR_FETCHING_METADATA' | 'ERROR_UPDATING_METADATA' | 'ERROR_CREATING_METADATA'
  | 'ERROR_FETCHING_METADATA_METRIC' | 'ERROR_FETCHING_ENVIRONMENT_SETTINGS' | 'ERROR_FETCHING_OAUTH_PROVIDERS'
  | 'ERROR_FETCHING_OAUTH_ACCESS_TOKEN' | 'ERROR_FETCHING_RECORDS' | 'ERROR_FETCHING_RECORD_BY_ID'
  | 'ERROR_DELETING_RECORD_RESPONSE' | 'ERROR_UPDATING_RECORD_RESPONSE' | 'ERROR_CREATING_RECORD_RESPONSE'
  | 'ERROR_CREATING_RECORD_RESPONSE_BULK' | 'GET_WORKSPACES' | 'CREATE_WORKSPACE' | 'ERROR_FETCHING_DATASET'
  | 'ERROR_FETCHING_CURRENT_USER' | 'ERROR_SIGNING_IN';

/** Every non-2xx answer (and network failure, status 0) becomes this one error type. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when the request never got an answer. */
  readonly status: number;
  /** Business code from the body's top-level `code` (contract §5), e.g. `missing_vector`. */
  readonly code?: string;
  /** The body's `detail` when it is a string. */
  readonly detail?: string;
  readonly body: unknown;
  readonly repositoryCode?: RepositoryCode;

  constructor(options: { status: number; body?: unknown; repositoryCode?: RepositoryCode; cause?: unknown }) {
    const { status, body, repositoryCode } = options;
    const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const detail = typeof record.detail === 'string' ? record.detail : undefined;
    super(detail ?? `${repositoryCode ?? 'API_ERROR'} (HTTP ${status})`, { cause: options.cause });
    this.status = status;
    this.body = body;
    this.code = typeof record.code === 'string' ? record.code : undefined;
    this.detail = detail;
    this.repositoryCode = repositoryCode;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError || (error instanceof Error && error.name === 'ApiError' && 'status' in error);
}
