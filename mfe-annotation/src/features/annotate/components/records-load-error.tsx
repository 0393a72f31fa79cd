import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@scholia/shared/api';
import { useAnnotationEvents } from '../../../embed/annotation-events.js';

/**
 * The records could not be read (the search failed): says so where they would be, with Retry,
 * and reports `load-failed` to the host once per failure.
 */
export function RecordsLoadError({ datasetId, error, onRetry }: { datasetId: string; error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('annotation');
  const emit = useAnnotationEvents();
  const status = isApiError(error) ? error.status : undefined;
  const message = status === 0 ? t('errors.serverUnreachable', { ns: 'translation' }) : t('record.loadFailed', { status: status ?? '?' });
  useEffect(() => {
    emit({ type: 'load-failed', datasetId, status, message });
  }, [emit, datasetId, status, message, error]);
  return (
    <div role="alert" className="mfe-ann-load-error" data-testid="records-load-error">
      <p>{message}</p>
      <button type="button" className="sch-button" onClick={onRetry}>{t('common.retry', { ns: 'translation' })}</button>
    </div>
  );
}
