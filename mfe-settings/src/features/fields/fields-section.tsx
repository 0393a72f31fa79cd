import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { fieldsQuery, updateField, type Field } from '@scholia/shared/api';
import { bus } from '@scholia/shared/bus';
import { SETTINGS_NS } from '../../i18n/register-settings-i18n.js';
import { useSectionForm } from '../../lib/use-section-form.js';
import { validateFieldTitle } from '../../lib/validation.js';
import { FieldIssue, issueProps, SectionActions } from '../../ui/form-parts.js';
import { hasMarkdownToggle, hasTemplate, toFieldDraft, toFieldPatch, type FieldDraft } from './field-model.js';

/** Edit fields: one form per field, each saved on its own. */
export function FieldsSection({ datasetId }: { datasetId: string }) {
  const { t } = useTranslation(SETTINGS_NS);
  const fields = useQuery(fieldsQuery(datasetId));
  return (
    <section className="sch-card mfe-settings__section" aria-labelledby="settings-fields-title">
      <h2 id="settings-fields-title">{t('fields.title')}</h2>
      {fields.isError && <p role="alert">{t('loadFailed')}</p>}
      {fields.data && fields.data.items.length === 0 && <p className="sch-muted">{t('fields.empty')}</p>}
      {fields.data?.items.map((field) => <FieldForm key={field.id} field={field} />)}
    </section>
  );
}

export function FieldForm({ field }: { field: Field }) {
  const { t } = useTranslation(SETTINGS_NS);
  const validate = useCallback((draft: FieldDraft) => validateFieldTitle(draft.title), []);
  const save = useCallback(async (draft: FieldDraft) => {
    const updated = await updateField(field.id, toFieldPatch(field, draft));
    bus.emit('dataset:changed', { datasetId: field.dataset_id });
    return toFieldDraft(updated);
  }, [field]);
  const form = useSectionForm({ original: toFieldDraft(field), validate, save });
  const id = `field-${field.id}`;
  return (
    <form className="mfe-settings__item" data-testid={`field-form-${field.name}`} onSubmit={(event) => { event.preventDefault(); void form.submit(); }}>
      <h3>{field.name} <span className="sch-muted">({field.settings.type})</span></h3>
      <div className="sch-form-row">
        <label htmlFor={`${id}-title`}>{t('fields.fieldTitle')}</label>
        <input {...issueProps(`${id}-title`, form.issues.title)} value={form.draft.title}
          onChange={(event) => form.setDraft((d) => ({ ...d, title: event.target.value }))} />
      </div>
      <FieldIssue inputId={`${id}-title`} issue={form.issues.title} />
      {hasMarkdownToggle(field) && (
        <div className="sch-form-row">
          <input id={`${id}-markdown`} type="checkbox" checked={form.draft.useMarkdown}
            onChange={(event) => form.setDraft((d) => ({ ...d, useMarkdown: event.target.checked }))} />
          <label htmlFor={`${id}-markdown`}>{t('fields.useMarkdown')}</label>
        </div>
      )}
      {hasTemplate(field) && (
        <>
          <label htmlFor={`${id}-template`}>{t('fields.template')}</label>
          <textarea id={`${id}-template`} rows={6} value={form.draft.template}
            onChange={(event) => form.setDraft((d) => ({ ...d, template: event.target.value }))} />
        </>
      )}
      <SectionActions form={form} label={field.name} />
    </form>
  );
}
