import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bus } from '@scholia/shared/bus';
import { updateDataset, type Dataset } from '@scholia/shared/api';
import { SETTINGS_NS } from '../../../i18n/register-settings-i18n.js';
import { useSectionForm } from '../../../lib/use-section-form.js';
import { validateGuidelines } from '../../../lib/validation.js';
import { FieldIssue, issueProps, SectionActions } from '../../../ui/form-parts.js';
import { MarkdownHtml } from '@scholia/shared/markdown';

interface GuidelinesDraft {
  guidelines: string;
}

const toDraft = (dataset: Dataset): GuidelinesDraft => ({ guidelines: dataset.guidelines ?? '' });

/** Guidelines in Markdown with a preview; saved on their own (spec §4, §5). */
export function GuidelinesForm({ dataset }: { dataset: Dataset }) {
  const { t } = useTranslation(SETTINGS_NS);
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const save = useCallback(async (draft: GuidelinesDraft) => {
    // Spec §5: sent trimmed, null when empty.
    const updated = await updateDataset(dataset.id, { guidelines: draft.guidelines.trim() || null });
    bus.emit('dataset:changed', { datasetId: dataset.id });
    return toDraft(updated);
  }, [dataset.id]);
  const validate = useCallback((draft: GuidelinesDraft) => validateGuidelines(draft.guidelines), []);
  const form = useSectionForm({ original: toDraft(dataset), validate, save });
  const inputId = 'settings-guidelines';
  return (
    <form className="mfe-settings__subsection" data-testid="guidelines-form" onSubmit={(event) => { event.preventDefault(); void form.submit(); }}>
      <h3>{t('info.guidelines')}</h3>
      <div className="mfe-settings__tabs" role="tablist">
        <button type="button" role="tab" aria-selected={tab === 'write'} onClick={() => setTab('write')}>{t('info.write')}</button>
        <button type="button" role="tab" aria-selected={tab === 'preview'} onClick={() => setTab('preview')}>{t('info.preview')}</button>
      </div>
      {tab === 'write' ? (
        <>
          <label htmlFor={inputId} className="sch-visually-hidden">{t('info.guidelines')}</label>
          <textarea
            {...issueProps(inputId, form.issues.guidelines)}
            rows={8}
            value={form.draft.guidelines}
            onChange={(event) => form.setDraft({ guidelines: event.target.value })}
          />
          <p className="sch-muted">{t('info.markdownHint')}</p>
        </>
      ) : form.draft.guidelines.trim() ? (
        <MarkdownHtml source={form.draft.guidelines} className="mfe-settings__markdown" testId="guidelines-preview" />
      ) : (
        <p className="sch-muted">{t('info.emptyPreview')}</p>
      )}
      <FieldIssue inputId={inputId} issue={form.issues.guidelines} />
      <SectionActions form={form} label={t('info.guidelines')} />
    </form>
  );
}
