import i18next from 'i18next';
import { clearNotifications, notify } from '../bus/notify.js';
import type { ApiError } from './api-error.js';

/**
 * The global HTTP error handler (spec §8): clear toasts, then show the translated HTTP
 * message, then the translated business message for `code`, or else a string `detail`.
 * Returns the messages shown; the caller rethrows.
 */
export function handleHttpError(error: ApiError): string[] {
  if (error.status === 0) return []; // offline: the shell's offline toast already says so
  clearNotifications();
  const shown: string[] = [];
  const httpKey = `http.${error.status}`;
  if (i18next.exists(httpKey)) shown.push(i18next.t(httpKey));
  const businessKey = error.code ? `business.${error.code}` : undefined;
  if (businessKey && i18next.exists(businessKey)) shown.push(i18next.t(businessKey));
  else if (error.detail) shown.push(error.detail);
  for (const message of shown) notify({ message, type: 'danger' });
  return shown;
}
