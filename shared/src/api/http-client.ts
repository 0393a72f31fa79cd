import { ApiError, type RepositoryCode } from './api-error.js';
import { handleHttpError } from './error-handler.js';
import { pageConnection, type ApiConnection, type ApiCredentials } from './connection.js';

export type QueryValue = string | number | boolean | undefined | null;
export type QueryParams = Record<string, QueryValue | QueryValue[]>;

export interface RequestOptions {
  query?: QueryParams;
  /** JSON body. */
  json?: unknown;
  /** Form-encoded body (the token call, spec §5). */
  form?: Record<string, string>;
  signal?: AbortSignal;
  /** false lets the caller handle the error itself, without global toasts. */
  globalErrorHandler?: boolean;
  repositoryCode?: RepositoryCode;
  /** The server and user the request goes to and as; default the page's (Scholia's own session). */
  connection?: ApiConnection;
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  /** `max-age` of the Cache-Control header, when the server set one. */
  maxAgeSeconds?: number;
  /** true for `no-store`/`no-cache`: never serve this from cache. */
  noCache: boolean;
}

/** The credentials requests of this connection go with, as one string (a token, else a key). */
export function currentCredentials(connection: ApiConnection = pageConnection): string | undefined {
  const { token, apiKey } = connection.credentials();
  return token ?? apiKey;
}

/** `v1/me` + params → `/api/v1/me?...`; array values repeat the key (`include=a&include=b`). */
export function buildUrl(path: string, query: QueryParams = {}, connection: ApiConnection = pageConnection): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(key, String(item));
    }
  }
  const qs = search.toString();
  return `${connection.baseUrl}${path.replace(/^\//, '')}${qs ? `?${qs}` : ''}`;
}

export function parseCacheControl(header: string | null): { maxAgeSeconds?: number; noCache: boolean } {
  if (!header) return { noCache: false };
  const noCache = /(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(header);
  const match = /max-age=(\d+)/i.exec(header);
  return { noCache, maxAgeSeconds: match ? Number(match[1]) : undefined };
}

/** The credentials header: the token, else the API key. */
function credentialHeaders({ token, apiKey }: ApiCredentials): Record<string, string> {
  if (token) return { Authorization: `Bearer ${token}` };
  return apiKey ? { 'X-Argilla-Api-Key': apiKey } : {};
}

/** JSON when the text is JSON, else the text itself (undefined when empty). */
function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The `ApiError` of a non-2xx answer, after the global handler ran unless the caller opted out. */
async function failure(response: Response, options: RequestOptions, connection: ApiConnection, sent: ApiCredentials): Promise<ApiError> {
  const error = new ApiError({ status: response.status, body: parseBody(await response.text()), repositoryCode: options.repositoryCode });
  if (options.globalErrorHandler !== false) {
    handleHttpError(error, { credentials: sent.token ?? sent.apiKey, onSessionExpired: connection.onSessionExpired });
  }
  return error;
}

/** One request; every non-2xx becomes an `ApiError` after the global handler ran. */
export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const { connection = pageConnection } = options;
  const sent = connection.credentials();
  const headers: Record<string, string> = { Accept: 'application/json', ...credentialHeaders(sent) };
  let body: BodyInit | undefined;
  if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query, connection), { method, headers, body, signal: options.signal });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiError({ status: 0, repositoryCode: options.repositoryCode, cause });
  }

  if (!response.ok) throw await failure(response, options, connection, sent);
  const parsed = parseBody(await response.text());
  return { data: parsed as T, status: response.status, ...parseCacheControl(response.headers.get('Cache-Control')) };
}

export interface DownloadedFile {
  blob: Blob;
  /** The name the server gave in `Content-Disposition`, when it gave one. */
  filename?: string;
}

/**
 * A file the API answers with (an export): fetched with the caller's credentials, which a plain
 * link cannot send, and handed back whole as a Blob. Errors as apiRequest.
 */
export async function apiDownload(path: string, options: Pick<RequestOptions, 'query' | 'signal' | 'globalErrorHandler' | 'repositoryCode'> = {}): Promise<DownloadedFile> {
  const connection = pageConnection;
  const sent = connection.credentials();
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query, connection), { method: 'GET', headers: credentialHeaders(sent), signal: options.signal });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiError({ status: 0, repositoryCode: options.repositoryCode, cause });
  }
  if (!response.ok) throw await failure(response, options, connection, sent);
  return { blob: await response.blob(), filename: attachmentFilename(response.headers.get('Content-Disposition')) };
}

/** `attachment; filename="x.csv"` → `x.csv`. */
export function attachmentFilename(header: string | null): string | undefined {
  const match = header ? /filename="([^"]*)"/i.exec(header) ?? /filename=([^;\s]+)/i.exec(header) : null;
  return match?.[1] || undefined;
}
