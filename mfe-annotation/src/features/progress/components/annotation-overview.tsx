import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDataset } from '../api/get-dataset.js';
import { ProgressMeter } from './progress-meter.js';
import { ScholiaLink } from '../../../embed/scholia-link.js';

/**
 * Dataset name and team progress, one short line of the page header: the name cut with an
 * ellipsis (whole in its tooltip), then the progress (`ProgressMeter`, unless the page puts it in
 * `progress`, a button opening the details).
 */
export const AnnotationOverview = memo(function AnnotationOverview({ datasetId, progress }: { datasetId?: string; progress?: ReactNode }) {
  const { t } = useTranslation('annotation');
  const dataset = useDataset(datasetId);
  if (!datasetId) return <p>{t('overview.noDataset')}</p>;
  if (dataset.isError) return <p role="alert">{t('common.loadFailed', { ns: 'translation' })}</p>;
  const name = dataset.data?.name ?? t('common.loading', { ns: 'translation' });
  return (
    <section className="mfe-annotation mfe-ann-overview">
      <h1 data-testid="annotation-dataset-name" title={name}>{name}</h1>
      {progress ?? <ProgressMeter datasetId={datasetId} />}
    </section>
  );
});

/** The link to the dataset's settings; `icon`: a gear, its name for screen readers and the tooltip. */
export function DatasetSettingsLink({ datasetId, icon = false }: { datasetId: string; icon?: boolean }) {
  const { t } = useTranslation('annotation');
  const name = t('overview.openSettings');
  return (
    <ScholiaLink to={{ page: 'dataset-settings', datasetId, path: `/dataset/${datasetId}/settings` }}>
      {icon ? <><span aria-hidden="true" title={name}>⚙</span><span className="mfe-ann-visually-hidden">{name}</span></> : name}
    </ScholiaLink>
  );
}
