import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDate } from '@scholia/shared/i18n';
import { useDataset } from '../api/get-dataset.js';
import { useWorkspace } from '../api/get-workspace.js';

/** Dataset info, read-only for now; the editors of spec §2 come section by section. */
export function DatasetInfo({ datasetId }: { datasetId?: string }) {
  const { t, i18n } = useTranslation();
  const dataset = useDataset(datasetId);
  const workspace = useWorkspace(dataset.data?.workspace_id);
  const d = dataset.data;
  if (dataset.isError) return <p role="alert">{t('common.loadFailed')}</p>;
  if (!d) return <p aria-busy="true">{t('common.loading')}</p>;
  return (
    <section className="mfe-settings">
      <h1>{t('datasetSettings.title')}</h1>
      <div className="sch-card">
        <h2>{t('datasetSettings.info')}</h2>
        <dl className="sch-definition-list">
          <dt>{t('datasetSettings.name')}</dt><dd data-testid="settings-dataset-name">{d.name}</dd>
          <dt>{t('datasetSettings.workspace')}</dt><dd>{workspace.data?.name ?? '…'}</dd>
          <dt>{t('datasetSettings.status')}</dt><dd>{d.status}</dd>
          <dt>{t('datasetSettings.distribution')}</dt>
          <dd>{t('datasetSettings.minSubmitted', { count: d.distribution.min_submitted })}</dd>
          <dt>{t('datasetSettings.createdAt')}</dt><dd>{formatDate(d.inserted_at, i18n.language)}</dd>
          <dt>{t('datasetSettings.updatedAt')}</dt><dd>{formatDate(d.updated_at, i18n.language)}</dd>
          <dt>{t('datasetSettings.guidelines')}</dt>
          <dd className="mfe-settings__guidelines">{d.guidelines ?? t('datasetSettings.noGuidelines')}</dd>
        </dl>
        <p><Link to={`/dataset/${d.id}/annotation-mode`}>{t('datasetSettings.seeDataset')}</Link></p>
      </div>
    </section>
  );
}
