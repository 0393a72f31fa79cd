import { useTranslation } from 'react-i18next';
import { formatDate } from '@scholia/shared/i18n';
import type { Dataset } from '@scholia/shared/api';
import { SETTINGS_NS } from '../../../i18n/register-settings-i18n.js';
import { useWorkspace } from '../api/get-workspace.js';
import { DistributionForm } from './distribution-form.js';
import { GuidelinesForm } from './guidelines-form.js';
import { MarkdownHtml } from '@scholia/shared/markdown';

export interface DatasetInfoProps {
  dataset: Dataset;
  /** Admins and owners edit guidelines and distribution; annotators only read (spec §6). */
  editable: boolean;
}

/** Dataset info: name, workspace, dates; guidelines and task distribution. */
export function DatasetInfo({ dataset, editable }: DatasetInfoProps) {
  const { t, i18n } = useTranslation(SETTINGS_NS);
  const workspace = useWorkspace(dataset.workspace_id);
  return (
    <section className="sch-card mfe-settings__section" aria-labelledby="settings-info-title">
      <h2 id="settings-info-title">{t('info.title')}</h2>
      <dl className="sch-definition-list">
        <dt>{t('info.name')}</dt><dd data-testid="settings-dataset-name">{dataset.name}</dd>
        <dt>{t('info.workspace')}</dt><dd data-testid="settings-workspace">{workspace.data?.name ?? '…'}</dd>
        {editable && (
          <>
            <dt>{t('info.status')}</dt><dd data-testid="settings-dataset-status">{t(`info.statusValue.${dataset.status}`, { defaultValue: dataset.status })}</dd>
            <dt>{t('info.createdAt')}</dt><dd>{formatDate(dataset.inserted_at, i18n.language)}</dd>
            <dt>{t('info.updatedAt')}</dt><dd data-testid="settings-updated-at">{formatDate(dataset.updated_at, i18n.language)}</dd>
          </>
        )}
      </dl>
      {editable ? (
        <>
          <GuidelinesForm dataset={dataset} />
          <DistributionForm dataset={dataset} />
        </>
      ) : (
        <div className="mfe-settings__subsection">
          <h3>{t('info.guidelines')}</h3>
          {dataset.guidelines
            ? <MarkdownHtml source={dataset.guidelines} className="mfe-settings__markdown" testId="settings-guidelines" />
            : <p className="sch-muted">{t('info.noGuidelines')}</p>}
        </div>
      )}
    </section>
  );
}
