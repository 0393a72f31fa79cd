import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { isApiError } from '../api/api-error.js';

/** What went wrong reading a dataset, in the reader's words: the key of its message. */
export function datasetLoadErrorKey(error: unknown): string {
  const status = isApiError(error) ? error.status : undefined;
  if (status === 404) return 'errors.datasetNotFound';
  if (status === 403) return 'errors.datasetForbidden';
  if (status === 0) return 'errors.serverUnreachable';
  return 'common.loadFailed';
}

/**
 * A dataset screen that could not open: says whether the dataset is gone or closed to the user,
 * or the server out of reach (then a retry reads the failed requests again), with a way home
 * (`home` stands for it where the page is not Scholia's own).
 */
export function DatasetLoadError({ error, home }: { error: unknown; home?: ReactNode }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = datasetLoadErrorKey(error);
  const retryable = key === 'errors.serverUnreachable' || key === 'common.loadFailed';
  return (
    <div role="alert" className="sch-load-error" data-testid="dataset-load-error">
      <p>{t(key)}</p>
      <p>
        {retryable && (
          <button type="button" className="sch-button sch-button--ghost" onClick={() => void queryClient.refetchQueries({ predicate: (query) => query.state.status === 'error' })}>
            {t('common.retry')}
          </button>
        )}{' '}
        {home === undefined ? <Link to="/">{t('common.backToHome')}</Link> : home}
      </p>
    </div>
  );
}
