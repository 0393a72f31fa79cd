import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { metadataPropertiesQuery, updateMetadataProperty, type MetadataProperty } from '@scholia/shared/api';
import { bus } from '@scholia/shared/bus';
import { SETTINGS_NS } from '../../i18n/register-settings-i18n.js';
import { useSectionForm } from '../../lib/use-section-form.js';
import { validateTitle500 } from '../../lib/validation.js';
import { FieldIssue, issueProps, SectionActions } from '../../ui/form-parts.js';

export interface MetadataDraft {
  title: string;
  visibleForAnnotators: boolean;
}

export const toMetadataDraft = (property: MetadataProperty): MetadataDraft => ({
  title: property.title,
  visibleForAnnotators: property.visible_for_annotators,
});

/** Edit metadata properties: title and visibility for annotators, one form per property. */
export function MetadataSection({ datasetId }: { datasetId: string }) {
  const { t } = useTranslation(SETTINGS_NS);
  const properties = useQuery(metadataPropertiesQuery(datasetId));
  return (
    <section className="sch-card mfe-settings__section" aria-labelledby="settings-metadata-title">
      <h2 id="settings-metadata-title">{t('metadata.title')}</h2>
      {properties.isError && <p role="alert">{t('loadFailed')}</p>}
      {properties.data && properties.data.items.length === 0 && <p className="sch-muted">{t('metadata.empty')}</p>}
      {properties.data?.items.map((property) => <MetadataForm key={property.id} property={property} />)}
    </section>
  );
}

export function MetadataForm({ property }: { property: MetadataProperty }) {
  const { t } = useTranslation(SETTINGS_NS);
  const validate = useCallback((draft: MetadataDraft) => validateTitle500(draft.title), []);
  const save = useCallback(async (draft: MetadataDraft) => {
    const updated = await updateMetadataProperty(property.id, {
      title: draft.title.trim(),
      visible_for_annotators: draft.visibleForAnnotators,
    });
    bus.emit('dataset:changed', { datasetId: property.dataset_id });
    return toMetadataDraft(updated);
  }, [property.id, property.dataset_id]);
  const form = useSectionForm({ original: toMetadataDraft(property), validate, save });
  const id = `metadata-${property.id}`;
  return (
    <form className="mfe-settings__item" data-testid={`metadata-form-${property.name}`} onSubmit={(event) => { event.preventDefault(); void form.submit(); }}>
      <h3>{property.name} <span className="sch-muted">({property.settings.type})</span></h3>
      <div className="sch-form-row">
        <label htmlFor={`${id}-title`}>{t('metadata.propertyTitle')}</label>
        <input {...issueProps(`${id}-title`, form.issues.title)} value={form.draft.title}
          onChange={(event) => form.setDraft((d) => ({ ...d, title: event.target.value }))} />
      </div>
      <FieldIssue inputId={`${id}-title`} issue={form.issues.title} />
      <div className="sch-form-row">
        <input id={`${id}-visible`} type="checkbox" checked={form.draft.visibleForAnnotators}
          onChange={(event) => form.setDraft((d) => ({ ...d, visibleForAnnotators: event.target.checked }))} />
        <label htmlFor={`${id}-visible`}>{t('metadata.visibleForAnnotators')}</label>
      </div>
      <SectionActions form={form} label={property.name} />
    </form>
  );
}
