import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@scholia/shared/i18n';
import { useDataset } from '../api/get-dataset.js';
import { useDatasetProgress } from '../api/get-progress.js';
import { progressPercent } from '../progress-percent.js';
import { AgreementSummary } from './agreement-summary.js';
import { ScholiaLink } from '../../../embed/scholia-link.js';

/**
 * Dataset name and team progress in one line of the page header. `compact` (a narrow page): the
 * name cut with an ellipsis and the progress as a thin bar and "done/total", their full text in a
 * tooltip; the agreement and the settings link are then in the page's menu (`OverviewLinks`).
 * `showAgreement`: owners and admins also see how much the annotators agree.
 */
export const AnnotationOverview = memo(function AnnotationOverview({ datasetId, showAgreement = false, compact = false }: { datasetId?: string; showAgreement?: boolean; compact?: boolean }) {
  const { t } = useTranslation('annotation');
  const dataset = useDataset(datasetId);
  const progress = useDatasetProgress(datasetId);
  if (!datasetId) return <p>{t('overview.noDataset')}</p>;
  if (dataset.isError) return <p role="alert">{t('common.loadFailed', { ns: 'translation' })}</p>;
  const p = progress.data;
  const name = dataset.data?.name ?? t('common.loading', { ns: 'translation' });
  const full = p && [
    t('overview.completedOf', { completed: formatNumber(p.completed), total: formatNumber(p.total) }),
    t('overview.percent', { value: progressPercent(p.completed, p.total) }),
    t('overview.pending', { count: p.pending }),
  ].join(' · ');
  return (
    <section className={`mfe-annotation mfe-ann-overview${compact ? ' mfe-ann-overview--compact' : ''}`}>
      <h1 data-testid="annotation-dataset-name" title={compact ? name : undefined}>{name}</h1>
      {p ? (
        <div className="mfe-ann-overview__progress" title={compact ? full : undefined}>
          <progress max={Math.max(p.total, 1)} value={p.completed} aria-label={t('overview.progress')} />
          {compact ? (
            <span data-testid="annotation-progress">
              <span aria-hidden="true">{t('overview.compact', { completed: formatNumber(p.completed), total: formatNumber(p.total) })}</span>
              <span className="mfe-ann-visually-hidden">{full}</span>
            </span>
          ) : (
            <span data-testid="annotation-progress">{full}</span>
          )}
        </div>
      ) : (
        <span aria-busy="true">{t('common.loading', { ns: 'translation' })}</span>
      )}
      {!compact && <OverviewLinks datasetId={datasetId} showAgreement={showAgreement} />}
    </section>
  );
});

/** The agreement (owners and admins) and the link to the dataset's settings. */
export function OverviewLinks({ datasetId, showAgreement }: { datasetId: string; showAgreement: boolean }) {
  const { t } = useTranslation('annotation');
  return (
    <>
      {showAgreement && <AgreementSummary datasetId={datasetId} />}
      <ScholiaLink to={{ page: 'dataset-settings', datasetId, path: `/dataset/${datasetId}/settings` }}>{t('overview.openSettings')}</ScholiaLink>
    </>
  );
}
