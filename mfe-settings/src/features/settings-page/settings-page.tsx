import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { currentUserQuery, type Role } from '@scholia/shared/api';
import { DatasetLoadError } from '@scholia/shared/ui';
import { SETTINGS_NS } from '../../i18n/register-settings-i18n.js';
import { DangerZone } from '../danger-zone/danger-zone.js';
import { useDataset } from '../dataset-info/api/get-dataset.js';
import { DatasetInfo } from '../dataset-info/components/dataset-info.js';
import { FieldsSection } from '../fields/fields-section.js';
import { HubExportForm } from '../hub-export/hub-export-form.js';
import { MetadataSection } from '../metadata/metadata-section.js';
import { DatasetProgress } from '../progress/dataset-progress.js';
import { QuestionsSection } from '../questions/questions-section.js';
import { RecordsDownload } from '../records-download/records-download.js';
import { SeeDataset } from '../see-dataset/see-dataset.js';
import { VectorsSection } from '../vectors/vectors-section.js';

/** Owner and admin count as admin-or-owner (spec §6). */
export const isAdminOrOwner = (role: Role | undefined) => role === 'owner' || role === 'admin';

/**
 * The dataset settings screen (spec §2). Admins and owners get every section; annotators the
 * reduced view, which loads only the dataset (spec §6) and offers nothing they may not change.
 */
export function SettingsPage({ datasetId }: { datasetId?: string }) {
  const { t } = useTranslation(SETTINGS_NS);
  const me = useQuery(currentUserQuery());
  const dataset = useDataset(datasetId);
  if (!datasetId) return <p>{t('noDataset')}</p>;
  if (dataset.isError || me.isError) return <DatasetLoadError error={dataset.error ?? me.error} />;
  const d = dataset.data;
  if (!d || !me.data) return <p aria-busy="true">{t('loading')}</p>;
  const admin = isAdminOrOwner(me.data.role);
  return (
    <div className="mfe-settings" data-testid={admin ? 'settings-full' : 'settings-reduced'}>
      <h1>{t('title')}</h1>
      {!admin && <p className="sch-muted">{t('reducedNote')}</p>}
      <DatasetInfo dataset={d} editable={admin} />
      {admin && (
        <>
          <DatasetProgress datasetId={d.id} />
          <SeeDataset dataset={d} />
          <FieldsSection datasetId={d.id} />
          <QuestionsSection datasetId={d.id} />
          <MetadataSection datasetId={d.id} />
          <VectorsSection datasetId={d.id} />
          <RecordsDownload dataset={d} />
          <HubExportForm dataset={d} />
          <DangerZone dataset={d} />
        </>
      )}
    </div>
  );
}
