/**
 * JSON over HTTP to the Hub and the dataset viewer (hub-contract §1, §4), with the retry rule of
 * hub-contract §1 [ours]: on 429 or `ResponseNotReady`, wait (`RateLimit: …;t=<s>` or 1 s, capped)
 * and retry at most 3 times. Tokens travel only in the Authorization header, never in messages.
 */
export class HubHttpError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'HubHttpError';
  }
}

export interface HubRequestOptions {
  token?: string;
  signal?: AbortSignal;
  /** Upper bound of one retry wait (ms). */
  maxRetryWaitMs?: number;
}

const MAX_RETRIES = 3;

/**
 * `base` followed by `segments`, each percent-encoded as one path segment, then `query`: no value
 * (a repository name such as `../admin`) can add, leave or change a segment of the path. URLs
 * resolve `.` and `..` even percent-encoded, so those are refused rather than encoded.
 */
export function hubUrl(base: string, segments: string[], query?: Record<string, string>): string {
  const path = segments
    .map((segment) => {
      if (segment === '' || segment === '.' || segment === '..') throw new Error(`not a URL path segment: "${segment}"`);
      return `/${encodeURIComponent(segment)}`;
    })
    .join('');
  return `${base}${path}${query ? `?${new URLSearchParams(query)}` : ''}`;
}

export async function fetchHubJson<T>(url: string, options: HubRequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(url, { headers, signal: options.signal });
    if (response.ok) return (await response.json()) as T;
    const errorCode = response.headers.get('x-error-code') ?? undefined;
    const text = await response.text();
    const retryable = response.status === 429 || errorCode === 'ResponseNotReady';
    if (retryable && attempt < MAX_RETRIES) {
      await wait(retryDelayMs(response.headers.get('ratelimit'), options.maxRetryWaitMs ?? 10_000), options.signal);
      continue;
    }
    throw new HubHttpError(response.status, errorCode, errorMessage(text) ?? `HTTP ${response.status} from ${new URL(url).pathname}`);
  }
}

function errorMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const message = body.error ?? body.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** `RateLimit: "api";r=0;t=42` → 42 s (capped); else 1 s. */
export function retryDelayMs(header: string | null, capMs: number): number {
  const match = header ? /;\s*t=(\d+)/.exec(header) : null;
  const ms = match ? Number(match[1]) * 1000 : 1000;
  return Math.min(Math.max(ms, 50), capMs);
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      },
      { once: true },
    );
  });
}
