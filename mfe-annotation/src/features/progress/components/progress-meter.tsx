import { useTranslation } from 'react-i18next';
import { formatNumber } from '@scholia/shared/i18n';
import { useDatasetProgress } from '../api/get-progress.js';
import { progressPercent } from '../progress-percent.js';

/**
 * The dataset's progress in little room: a thin bar and "done/total", the full sentence (done of
 * total, percentage, pending) in the tooltip and for screen readers.
 */
export function ProgressMeter({ datasetId }: { datasetId: string }) {
  const { t } = useTranslation('annotation');
  const p = useDatasetProgress(datasetId).data;
  if (!p) return <span aria-busy="true">{t('common.loading', { ns: 'translation' })}</span>;
  const full = [
    t('overview.completedOf', { completed: formatNumber(p.completed), total: formatNumber(p.total) }),
    t('overview.percent', { value: progressPercent(p.completed, p.total) }),
    t('overview.pending', { count: p.pending }),
  ].join(' · ');
  return (
    <span className="mfe-ann-overview__progress" title={full}>
      <progress max={Math.max(p.total, 1)} value={p.completed} aria-label={t('overview.progress')} />
      <span data-testid="annotation-progress">
        <span aria-hidden="true">{t('overview.compact', { completed: formatNumber(p.completed), total: formatNumber(p.total) })}</span>
        <span className="mfe-ann-visually-hidden">{full}</span>
      </span>
    </span>
  );
}
