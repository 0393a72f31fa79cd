import i18next from 'i18next';
import { bus } from '../bus/event-bus.js';
import { clearNotifications, notify } from '../bus/notify.js';
import type { ApiError } from './api-error.js';

/** Credentials already reported as refused: the screen's parallel requests all fail with them. */
const refusedCredentials = new Set<string>();
// A new sign-in starts a new session: its refusals are news again, however the last one ended.
bus.on('session:signed-in', () => refusedCredentials.clear());

/**
 * The global HTTP error handler (spec §8): clear toasts, then show the translated HTTP
 * message, then the translated business message for `code`, or else a string `detail`.
 * Returns the messages shown; the caller rethrows. A 401 is reported once per token or key, one
 * toast and one `session:expired`, however many requests failed with it; requests sent without
 * credentials after that (the session was cleared) add nothing. An embedded page's connection
 * hears of its own refused credentials (`onSessionExpired`), the page's bus of the page's.
 */
export function handleHttpError(error: ApiError, request: { credentials?: string; onSessionExpired?: () => void } = {}): string[] {
  if (error.status === 0) return []; // offline: the shell's offline toast already says so
  if (error.status === 401) {
    // After a refused token the session is cleared, so the screen's next requests go without one.
    const credentials = request.credentials ?? '';
    if (refusedCredentials.has(credentials) || (!request.credentials && refusedCredentials.size > 0)) return [];
    refusedCredentials.add(credentials);
    if (request.credentials) (request.onSessionExpired ?? (() => bus.emit('session:expired', undefined)))();
  }
  clearNotifications();
  const shown: string[] = [];
  const httpKey = `http.${error.status}`;
  if (i18next.exists(httpKey)) shown.push(i18next.t(httpKey));
  const businessKey = error.code ? `business.${error.code}` : undefined;
  if (businessKey && i18next.exists(businessKey)) shown.push(i18next.t(businessKey));
  else if (error.detail && !shown.includes(error.detail)) shown.push(error.detail);
  if (shown.length === 0) shown.push(refusalMessage(error));
  for (const message of shown) notify({ message, type: 'danger' });
  return shown;
}

/**
 * A refusal the steps above have no words for (a request validation error, a policy refusal):
 * said in general terms rather than not at all, with the refused value's place when the body
 * gives it (`loc`, contract §5).
 */
function refusalMessage(error: ApiError): string {
  const where = refusedValuePlace(error.body);
  return where ? i18next.t('errors.valueRefused', { where }) : i18next.t('errors.requestRefused', { status: error.status });
}

function refusedValuePlace(body: unknown): string | undefined {
  const errors = (body as { detail?: { params?: { errors?: unknown } } } | null | undefined)?.detail?.params?.errors;
  const loc = Array.isArray(errors) ? (errors[0] as { loc?: unknown } | undefined)?.loc : undefined;
  if (!Array.isArray(loc) || loc.length === 0) return undefined;
  // `body`, `query` or `path` says which part of the request; the rest names the value.
  return (loc.length > 1 ? loc.slice(1) : loc).join('.');
}
