import { useTranslation } from 'react-i18next';
import type { QuestionConfig } from '../domain/question-defaults.js';
import type { QuestionErrors } from '../domain/validation.js';

export interface QuestionEditorProps {
  question: QuestionConfig;
  errors?: QuestionErrors;
  textFields: string[];
  /** Columns that could give this question its suggestion, and the chosen one. */
  suggestionColumns: string[];
  suggestionColumn?: string;
  onChange(patch: Partial<QuestionConfig>): void;
  onSuggestionColumn(column: string | undefined): void;
  onRemove(): void;
}

function FieldError({ error }: { error?: string }) {
  const { t } = useTranslation('hubImport');
  return error ? <span className="mfe-hub-import__error" role="alert">{t(`validation.${error}`)}</span> : null;
}

/** One question: name, title, description, required, options and the type's own settings. */
export function QuestionEditor({ question, errors = {}, textFields, suggestionColumns, suggestionColumn, onChange, onSuggestionColumn, onRemove }: QuestionEditorProps) {
  const { t } = useTranslation('hubImport');
  const hasOptions = question.type !== 'text';
  return (
    <fieldset className="mfe-hub-import__question" data-question={question.name}>
      <legend>{t(`editor.questionTypes.${question.type}`)}</legend>
      <label>
        {t('editor.questionName')}
        <input className="sch-input" value={question.name} aria-invalid={Boolean(errors.name)} onChange={(e) => onChange({ name: e.target.value })} />
        <FieldError error={errors.name} />
      </label>
      <label>
        {t('editor.questionTitle')}
        <input className="sch-input" value={question.title} aria-invalid={Boolean(errors.title)} onChange={(e) => onChange({ title: e.target.value })} />
        <FieldError error={errors.title} />
      </label>
      <label>
        {t('editor.description')}
        <textarea className="sch-input" value={question.description} aria-invalid={Boolean(errors.description)} onChange={(e) => onChange({ description: e.target.value })} />
        <FieldError error={errors.description} />
      </label>
      {hasOptions && (
        <label>
          {t('editor.options')}
          <input className="sch-input" value={question.options} aria-invalid={Boolean(errors.options)} onChange={(e) => onChange({ options: e.target.value })} />
          <FieldError error={errors.options} />
        </label>
      )}
      {question.type === 'span' && (
        <>
          <label>
            {t('editor.spanField')}
            <select className="sch-input" value={question.field ?? ''} aria-invalid={Boolean(errors.field)} onChange={(e) => onChange({ field: e.target.value || undefined })}>
              <option value="">—</option>
              {textFields.map((f) => <option key={f} value={f}>{f}</option>)}
            </select>
            <FieldError error={errors.field} />
          </label>
          <label className="mfe-hub-import__check">
            <input type="checkbox" checked={question.allowOverlapping} onChange={(e) => onChange({ allowOverlapping: e.target.checked })} />
            {t('editor.allowOverlapping')}
          </label>
        </>
      )}
      {question.type === 'multi_label_selection' && (
        <label className="mfe-hub-import__check">
          <input type="checkbox" checked={question.optionsOrder === 'suggestion'} onChange={(e) => onChange({ optionsOrder: e.target.checked ? 'suggestion' : 'natural' })} />
          {t('editor.optionsOrder')}
        </label>
      )}
      {question.type === 'text' && (
        <label className="mfe-hub-import__check">
          <input type="checkbox" checked={question.useMarkdown} onChange={(e) => onChange({ useMarkdown: e.target.checked })} />
          {t('editor.useMarkdown')}
        </label>
      )}
      {question.type !== 'span' && (
        <label>
          {t('editor.suggestedFrom')}
          <select className="sch-input" value={suggestionColumn ?? ''} onChange={(e) => onSuggestionColumn(e.target.value || undefined)}>
            <option value="">{t('editor.noSuggestion')}</option>
            {suggestionColumns.map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
        </label>
      )}
      <label className="mfe-hub-import__check">
        <input type="checkbox" checked={question.required} onChange={(e) => onChange({ required: e.target.checked })} />
        {t('editor.required')}
      </label>
      <button type="button" className="sch-button sch-button--ghost" onClick={onRemove} aria-label={t('editor.removeQuestion', { name: question.name })}>
        {t('editor.remove')}
      </button>
    </fieldset>
  );
}
