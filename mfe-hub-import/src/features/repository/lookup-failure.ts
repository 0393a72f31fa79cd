import { HubLookupError } from '@scholia/shared/api';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Why the repository could not be looked up, in the reader's words ('hubImport' namespace). */
export function lookupFailureMessage(error: unknown, t: Translate): string {
  if (error instanceof HubLookupError && error.reason === 'unreachable') return t('hubUnreachable');
  if (error instanceof HubLookupError && error.reason === 'viewer-failed') return t('viewerFailed', { status: error.status ?? '?' });
  return t('notFound');
}
