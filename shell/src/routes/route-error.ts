/** An error that carries the status the error page shows. */
export class RouteError extends Error {
  override readonly name = 'RouteError';
  constructor(readonly statusCode: number, message: string) {
    super(message);
  }
}

/** Status of any thrown value: statusCode, status or response.status, else 500 (spec §8). */
export function statusOf(error: unknown): number {
  if (error && typeof error === 'object') {
    const e = error as { statusCode?: unknown; status?: unknown; response?: { status?: unknown } };
    for (const candidate of [e.statusCode, e.status, e.response?.status]) {
      if (typeof candidate === 'number' && candidate >= 400) return candidate;
    }
  }
  return 500;
}

export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object') {
    const e = error as { statusText?: unknown; data?: unknown; message?: unknown };
    if (typeof e.message === 'string') return e.message;
    if (typeof e.data === 'string') return e.data;
    if (typeof e.statusText === 'string') return e.statusText;
  }
  return String(error);
}
