import { ApiError } from '@scholia/shared/api';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * Why a save was refused, in the reader's language ('annotation' namespace): the server's own
 * `detail` is English and meant for developers, so the status says what happened.
 */
export function saveFailureReason(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError)) return t('failure.unexpected');
  switch (error.status) {
    case 0: return t('failure.unreachable');
    // The token or key was refused (revoked, expired): the user is signed out, not refused the dataset.
    case 401: return t('failure.signedOut');
    case 403: return t('failure.forbidden');
    case 404: return t('failure.notFound');
    case 409: return t('failure.conflict');
    case 422: return t('failure.invalid');
    default: return t('failure.status', { status: error.status });
  }
}
