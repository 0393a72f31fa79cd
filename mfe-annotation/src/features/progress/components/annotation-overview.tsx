import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatNumber } from '@scholia/shared/i18n';
import { useDataset } from '../api/get-dataset.js';
import { useDatasetProgress } from '../api/get-progress.js';
import { progressPercent } from '../progress-percent.js';
import { AgreementSummary } from './agreement-summary.js';

/**
 * Dataset name and team progress in one line of the page header.
 * `showAgreement`: owners and admins also see how much the annotators agree. */
export const AnnotationOverview = memo(function AnnotationOverview({ datasetId, showAgreement = false }: { datasetId?: string; showAgreement?: boolean }) {
  const { t } = useTranslation('annotation');
  const dataset = useDataset(datasetId);
  const progress = useDatasetProgress(datasetId);
  if (!datasetId) return <p>{t('overview.noDataset')}</p>;
  if (dataset.isError) return <p role="alert">{t('common.loadFailed', { ns: 'translation' })}</p>;
  const p = progress.data;
  return (
    <section className="mfe-annotation mfe-ann-overview">
      <h1 data-testid="annotation-dataset-name">{dataset.data?.name ?? t('common.loading', { ns: 'translation' })}</h1>
      {p ? (
        <div className="mfe-ann-overview__progress">
          <progress max={Math.max(p.total, 1)} value={p.completed} aria-label={t('overview.progress')} />
          <span data-testid="annotation-progress">
            {t('overview.completedOf', { completed: formatNumber(p.completed), total: formatNumber(p.total) })}
            {' · '}
            {t('overview.percent', { value: progressPercent(p.completed, p.total) })}
            {' · '}
            {t('overview.pending', { count: p.pending })}
          </span>
        </div>
      ) : (
        <span aria-busy="true">{t('common.loading', { ns: 'translation' })}</span>
      )}
      {showAgreement && <AgreementSummary datasetId={datasetId} />}
      <Link to={`/dataset/${datasetId}/settings`}>{t('overview.openSettings')}</Link>
    </section>
  );
});
