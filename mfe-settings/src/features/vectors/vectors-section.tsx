import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { updateVectorSettings, vectorsSettingsQuery, type VectorSettings } from '@scholia/shared/api';
import { bus } from '@scholia/shared/bus';
import { SETTINGS_NS } from '../../i18n/register-settings-i18n.js';
import { useSectionForm } from '../../lib/use-section-form.js';
import { validateTitle500 } from '../../lib/validation.js';
import { FieldIssue, issueProps, SectionActions } from '../../ui/form-parts.js';

interface VectorDraft {
  title: string;
}

/** Edit vectors: the title of each vector setting, one form per vector. */
export function VectorsSection({ datasetId }: { datasetId: string }) {
  const { t } = useTranslation(SETTINGS_NS);
  const vectors = useQuery(vectorsSettingsQuery(datasetId));
  return (
    <section className="sch-card mfe-settings__section" aria-labelledby="settings-vectors-title">
      <h2 id="settings-vectors-title">{t('vectors.title')}</h2>
      {vectors.isError && <p role="alert">{t('loadFailed')}</p>}
      {vectors.data && vectors.data.items.length === 0 && <p className="sch-muted">{t('vectors.empty')}</p>}
      {vectors.data?.items.map((vector) => <VectorForm key={vector.id} vector={vector} />)}
    </section>
  );
}

export function VectorForm({ vector }: { vector: VectorSettings }) {
  const { t } = useTranslation(SETTINGS_NS);
  const validate = useCallback((draft: VectorDraft) => validateTitle500(draft.title), []);
  const save = useCallback(async (draft: VectorDraft) => {
    const updated = await updateVectorSettings(vector.id, draft.title.trim());
    bus.emit('dataset:changed', { datasetId: vector.dataset_id });
    return { title: updated.title };
  }, [vector.id, vector.dataset_id]);
  const form = useSectionForm({ original: { title: vector.title }, validate, save });
  const id = `vector-${vector.id}`;
  return (
    <form className="mfe-settings__item" data-testid={`vector-form-${vector.name}`} onSubmit={(event) => { event.preventDefault(); void form.submit(); }}>
      <h3>{vector.name} <span className="sch-muted">{t('vectors.dimensions', { count: vector.dimensions })}</span></h3>
      <div className="sch-form-row">
        <label htmlFor={`${id}-title`}>{t('vectors.vectorTitle')}</label>
        <input {...issueProps(`${id}-title`, form.issues.title)} value={form.draft.title}
          onChange={(event) => form.setDraft({ title: event.target.value })} />
      </div>
      <FieldIssue inputId={`${id}-title`} issue={form.issues.title} />
      <SectionActions form={form} label={vector.name} />
    </form>
  );
}
