/** A minimal HTTP client for API tests: real requests, JSON in and out. */
export interface ApiResult<T = any> {
  status: number;
  body: T;
  /** The body as the server wrote it. */
  text: string;
  headers: Headers;
}

export type Credentials = { apiKey: string } | { token: string } | undefined;

export class TestApi {
  constructor(
    readonly baseUrl: string,
    readonly credentials: Credentials = undefined,
  ) {}

  as(credentials: Credentials): TestApi {
    return new TestApi(this.baseUrl, credentials);
  }

  async request<T = any>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (this.credentials && 'apiKey' in this.credentials) headers['X-Argilla-Api-Key'] = this.credentials.apiKey;
    if (this.credentials && 'token' in this.credentials) headers.Authorization = `Bearer ${this.credentials.token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      if (typeof body === 'string') payload = body;
      else {
        payload = JSON.stringify(body);
        headers['Content-Type'] ??= 'application/json';
      }
    }
    const response = await fetch(`${this.baseUrl}/api/v1${path}`, { method, headers, body: payload });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* non-JSON body stays text */
    }
    return { status: response.status, body: parsed as T, text, headers: response.headers };
  }

  /** Sends `json` exactly as written (numbers as typed, duplicate keys) and returns the reply's own text. */
  sendJsonText = <T = any>(method: string, path: string, json: string) => this.request<T>(method, path, json, { 'Content-Type': 'application/json' });

  get = <T = any>(path: string) => this.request<T>('GET', path);
  post = <T = any>(path: string, body?: unknown) => this.request<T>('POST', path, body ?? {});
  put = <T = any>(path: string, body?: unknown) => this.request<T>('PUT', path, body);
  patch = <T = any>(path: string, body?: unknown) => this.request<T>('PATCH', path, body ?? {});
  delete = <T = any>(path: string) => this.request<T>('DELETE', path);
}
