import { DatasetCreationError, isApiError } from '@scholia/shared/api';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Why the server refused a step, translated where the case is known, else the server's own words. */
function reasonOf(error: DatasetCreationError, t: Translate): string {
  const cause = error.cause;
  if (isApiError(cause)) {
    if (cause.status === 0) return t('editor.reasons.serverUnreachable');
    if (cause.status === 403) return t('editor.reasons.forbidden');
    if (cause.status === 409 && error.step === 'dataset') return t('editor.reasons.datasetNameTaken');
    if (cause.status === 409 && error.step === 'workspace') return t('editor.reasons.workspaceNameTaken');
    return cause.detail ?? t('editor.reasons.status', { status: cause.status });
  }
  // The import job runs on the server, which reads the Hub; a job that ended badly says no more.
  if (error.step === 'records') return t('editor.reasons.importFailed');
  return cause instanceof Error ? cause.message : String(cause);
}

/** What happened when creating the dataset failed: the step, and why. */
export function creationFailureMessage(error: unknown, t: Translate): string {
  if (!(error instanceof DatasetCreationError)) return t('editor.failed', { step: t('editor.failedSteps.dataset'), reason: String(error) });
  return t('editor.failed', { step: t(`editor.failedSteps.${error.step}`), reason: reasonOf(error, t) });
}
