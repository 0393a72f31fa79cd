import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { datasetMetricsQuery, datasetProgressQuery, queryClient } from '@scholia/shared/api';
import { bus, type AppEvents } from '@scholia/shared/bus';
import { formatNumber, formatPercent } from '@scholia/shared/i18n';
import { SETTINGS_NS } from '../../i18n/register-settings-i18n.js';
import { DatasetAgreement } from './dataset-agreement.js';

/** Percent with 2 decimals (spec §9). */
export function progressPercent(completed: number, total: number): string {
  return formatPercent(total > 0 ? (completed / total) * 100 : 0, 2);
}

/**
 * Re-reads progress and metrics when any remote asks for it on the bus (spec §4: after each
 * response), or when the dataset changed.
 */
export function useProgressRefresh(datasetId: string): void {
  useEffect(() => {
    const refreshProgress = ({ datasetId: id }: AppEvents['progress:refresh-requested']) => {
      if (id === datasetId) void queryClient.invalidateQueries({ queryKey: datasetProgressQuery(datasetId).queryKey });
    };
    const refreshMetrics = ({ datasetId: id }: AppEvents['metrics:refresh-requested']) => {
      if (id === datasetId) void queryClient.invalidateQueries({ queryKey: datasetMetricsQuery(datasetId).queryKey });
    };
    const refreshBoth = (event: AppEvents['dataset:changed']) => {
      refreshProgress(event);
      refreshMetrics(event);
    };
    bus.on('progress:refresh-requested', refreshProgress);
    bus.on('metrics:refresh-requested', refreshMetrics);
    bus.on('dataset:changed', refreshBoth);
    return () => {
      bus.off('progress:refresh-requested', refreshProgress);
      bus.off('metrics:refresh-requested', refreshMetrics);
      bus.off('dataset:changed', refreshBoth);
    };
  }, [datasetId]);
}

/** Team progress and the user's own response counts. */
export function DatasetProgress({ datasetId }: { datasetId: string }) {
  const { t } = useTranslation(SETTINGS_NS);
  useProgressRefresh(datasetId);
  const progress = useQuery(datasetProgressQuery(datasetId));
  const metrics = useQuery(datasetMetricsQuery(datasetId));
  const p = progress.data;
  const m = metrics.data?.responses;
  return (
    <section className="sch-card mfe-settings__section" aria-labelledby="settings-progress-title">
      <h2 id="settings-progress-title">{t('progress.title')}</h2>
      {p ? (
        <>
          <progress max={Math.max(p.total, 1)} value={p.completed} aria-label={t('progress.title')} />
          <p data-testid="settings-progress">
            {t('progress.completed', { completed: formatNumber(p.completed), total: formatNumber(p.total), percent: progressPercent(p.completed, p.total) })}
            {' · '}
            {t('progress.pending', { count: p.pending })}
          </p>
        </>
      ) : (
        <p aria-busy="true">{t('loading')}</p>
      )}
      {m && (
        <p data-testid="settings-metrics">
          {t('progress.mine')}: {t('progress.submitted', { count: m.submitted })} · {t('progress.draft', { count: m.draft })}
          {' · '}{t('progress.discarded', { count: m.discarded })} · {t('progress.pendingMine', { count: m.pending })}
        </p>
      )}
      <DatasetAgreement datasetId={datasetId} />
    </section>
  );
}
