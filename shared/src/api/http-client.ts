import { ApiError, type RepositoryCode } from './api-error.js';
import { handleHttpError } from './error-handler.js';
import { readToken } from './session.js';

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
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  /** `max-age` of the Cache-Control header, when the server set one. */
  maxAgeSeconds?: number;
  /** true for `no-store`/`no-cache`: never serve this from cache. */
  noCache: boolean;
}

let baseUrl = '/api/';
let apiKey: string | undefined;

/**
 * Points the client at another API root (tests, a host page on another origin) and, for a host
 * that authenticates with keys, sets the API key sent when there is no bearer token.
 */
export function configureApi(options: { baseUrl?: string; apiKey?: string }): void {
  if (options.baseUrl) baseUrl = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  if ('apiKey' in options) apiKey = options.apiKey || undefined;
}

/** The credentials requests go with: the signed-in token, else the API key a host set. */
export function currentCredentials(): string | undefined {
  return readToken() ?? apiKey;
}

/** `v1/me` + params → `/api/v1/me?...`; array values repeat the key (`include=a&include=b`). */
export function buildUrl(path: string, query: QueryParams = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(key, String(item));
    }
  }
  const qs = search.toString();
  return `${baseUrl}${path.replace(/^\//, '')}${qs ? `?${qs}` : ''}`;
}

export function parseCacheControl(header: string | null): { maxAgeSeconds?: number; noCache: boolean } {
  if (!header) return { noCache: false };
  const noCache = /(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(header);
  const match = /max-age=(\d+)/i.exec(header);
  return { noCache, maxAgeSeconds: match ? Number(match[1]) : undefined };
}

/** One request; every non-2xx becomes an `ApiError` after the global handler ran. */
export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  else if (apiKey) headers['X-Argilla-Api-Key'] = apiKey;
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
    response = await fetch(buildUrl(path, options.query), { method, headers, body, signal: options.signal });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiError({ status: 0, repositoryCode: options.repositoryCode, cause });
  }

  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!response.ok) {
    const error = new ApiError({ status: response.status, body: parsed, repositoryCode: options.repositoryCode });
    if (options.globalErrorHandler !== false) handleHttpError(error, { credentials: token ?? apiKey });
    throw error;
  }
  return { data: parsed as T, status: response.status, ...parseCacheControl(response.headers.get('Cache-Control')) };
}
