import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { currentUserQuery, fieldsQuery, type Dataset } from '@scholia/shared/api';
import { CodeBlock } from '@scholia/shared/ui';
import { SETTINGS_NS } from '../../i18n/register-settings-i18n.js';
import { useWorkspace } from '../dataset-info/api/get-workspace.js';
import { buildLogRecordsSnippet } from './python-snippet.js';

/** Link to the annotation view, the hub source when there is one, and the Python snippet with copy. */
export function SeeDataset({ dataset }: { dataset: Dataset }) {
  const { t } = useTranslation(SETTINGS_NS);
  const me = useQuery(currentUserQuery());
  const workspace = useWorkspace(dataset.workspace_id);
  const fields = useQuery(fieldsQuery(dataset.id));
  const repoId = typeof dataset.metadata?.repoId === 'string' ? dataset.metadata.repoId : undefined;
  const snippet = me.data && workspace.data
    ? buildLogRecordsSnippet({
      apiUrl: window.location.origin,
      apiKey: me.data.api_key,
      datasetName: dataset.name,
      workspaceName: workspace.data.name,
      fieldNames: (fields.data?.items ?? []).map((field) => field.name),
    })
    : undefined;
  return (
    <section className="sch-card mfe-settings__section" aria-labelledby="settings-see-title">
      <h2 id="settings-see-title">{t('seeDataset.title')}</h2>
      <p><Link to={`/dataset/${dataset.id}/annotation-mode`}>{t('seeDataset.open')}</Link></p>
      {repoId && <p className="sch-muted">{t('seeDataset.onHub', { repoId })}</p>}
      <p>{t('seeDataset.snippetIntro')}</p>
      {snippet && <div data-testid="settings-python-snippet"><CodeBlock code={snippet} language="python" /></div>}
    </section>
  );
}
