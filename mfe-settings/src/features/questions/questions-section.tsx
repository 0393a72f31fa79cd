import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { questionsQuery, updateQuestion, type Question } from '@scholia/shared/api';
import { bus } from '@scholia/shared/bus';
import { SETTINGS_NS } from '../../i18n/register-settings-i18n.js';
import { useSectionForm } from '../../lib/use-section-form.js';
import { validateQuestionVisibility, type Issue } from '../../lib/validation.js';
import { FieldIssue, issueId, issueProps, SectionActions } from '../../ui/form-parts.js';
import {
  hasEditableOptions, moveOption, showsVisibleOptions, toQuestionDraft, toQuestionPatch, validateQuestionDraft, type QuestionDraft,
} from './question-model.js';

/** Edit questions: one form per question, each saved on its own and restorable. */
export function QuestionsSection({ datasetId }: { datasetId: string }) {
  const { t } = useTranslation(SETTINGS_NS);
  const questions = useQuery(questionsQuery(datasetId));
  return (
    <section className="sch-card mfe-settings__section" aria-labelledby="settings-questions-title">
      <h2 id="settings-questions-title">{t('questions.title')}</h2>
      {questions.isError && <p role="alert">{t('loadFailed')}</p>}
      {questions.data && questions.data.items.length === 0 && <p className="sch-muted">{t('questions.empty')}</p>}
      {questions.data?.items.map((question) => <QuestionForm key={question.id} question={question} />)}
    </section>
  );
}

export function QuestionForm({ question }: { question: Question }) {
  const { t } = useTranslation(SETTINGS_NS);
  const validate = useCallback((draft: QuestionDraft) => validateQuestionDraft(question, draft), [question]);
  const save = useCallback(async (draft: QuestionDraft) => {
    const updated = await updateQuestion(question.id, toQuestionPatch(question, draft));
    bus.emit('dataset:changed', { datasetId: question.dataset_id });
    return toQuestionDraft(updated);
  }, [question]);
  const form = useSectionForm({ original: toQuestionDraft(question), validate, save });
  const { draft, issues, setDraft } = form;
  const id = `question-${question.id}`;
  const type = question.settings.type;
  const typeKey = `questions.types.${type}`;
  return (
    <form className="mfe-settings__item" data-testid={`question-form-${question.name}`} onSubmit={(event) => { event.preventDefault(); void form.submit(); }}>
      <h3>
        {question.name} <span className="sch-muted">({t(typeKey, { defaultValue: type })}{question.required ? `, ${t('questions.required')}` : ''})</span>
      </h3>
      <div className="sch-form-row">
        <label htmlFor={`${id}-title`}>{t('questions.questionTitle')}</label>
        <input {...issueProps(`${id}-title`, issues.title)} value={draft.title}
          onChange={(event) => setDraft((d) => ({ ...d, title: event.target.value }))} />
      </div>
      <FieldIssue inputId={`${id}-title`} issue={issues.title} />
      <div className="sch-form-row">
        <label htmlFor={`${id}-description`}>{t('questions.description')}</label>
        <textarea {...issueProps(`${id}-description`, issues.description)} rows={2} value={draft.description}
          onChange={(event) => setDraft((d) => ({ ...d, description: event.target.value }))} />
      </div>
      <FieldIssue inputId={`${id}-description`} issue={issues.description} />
      <AnnotatorVisibility id={`${id}-annotators`} required={question.required} visible={draft.visibleForAnnotators}
        issue={validateQuestionVisibility(question.required, draft.visibleForAnnotators).visibleForAnnotators}
        onChange={(visible) => setDraft((d) => ({ ...d, visibleForAnnotators: visible }))} />

      {type === 'text' && (
        <div className="sch-form-row">
          <input id={`${id}-markdown`} type="checkbox" checked={draft.useMarkdown}
            onChange={(event) => setDraft((d) => ({ ...d, useMarkdown: event.target.checked }))} />
          <label htmlFor={`${id}-markdown`}>{t('questions.useMarkdown')}</label>
        </div>
      )}

      {hasEditableOptions(question) && (
        <fieldset className="mfe-settings__options">
          <legend>{t('questions.options')}</legend>
          <ol>
            {draft.options.map((option, index) => {
              const optionId = `${id}-option-${index}`;
              const issue = issues[`option:${option.value}`];
              return (
                <li key={option.value}>
                  <label htmlFor={optionId} className="sch-visually-hidden">{t('questions.optionText', { value: option.value })}</label>
                  <input {...issueProps(optionId, issue)} value={option.text}
                    onChange={(event) => setDraft((d) => ({
                      ...d, options: d.options.map((o) => (o.value === option.value ? { ...o, text: event.target.value } : o)),
                    }))} />
                  <button type="button" className="sch-button sch-button--ghost" disabled={index === 0}
                    aria-label={t('questions.moveUp', { value: option.value })}
                    onClick={() => setDraft((d) => ({ ...d, options: moveOption(d.options, index, -1) }))}>↑</button>
                  <button type="button" className="sch-button sch-button--ghost" disabled={index === draft.options.length - 1}
                    aria-label={t('questions.moveDown', { value: option.value })}
                    onClick={() => setDraft((d) => ({ ...d, options: moveOption(d.options, index, 1) }))}>↓</button>
                  <FieldIssue inputId={optionId} issue={issue} />
                </li>
              );
            })}
          </ol>
        </fieldset>
      )}

      {showsVisibleOptions(question, draft.options.length) && (
        <>
          <div className="sch-form-row">
            <label htmlFor={`${id}-visible`}>{t('questions.visibleOptions')}</label>
            <input {...issueProps(`${id}-visible`, issues.visibleOptions)} type="number" min={3} max={draft.options.length}
              value={draft.visibleOptions} onChange={(event) => setDraft((d) => ({ ...d, visibleOptions: event.target.value }))} />
          </div>
          <FieldIssue inputId={`${id}-visible`} issue={issues.visibleOptions} />
        </>
      )}

      {type === 'multi_label_selection' && (
        <div className="sch-form-row">
          <input id={`${id}-suggestion-first`} type="checkbox" checked={draft.suggestionFirst}
            onChange={(event) => setDraft((d) => ({ ...d, suggestionFirst: event.target.checked }))} />
          <label htmlFor={`${id}-suggestion-first`}>{t('questions.suggestionFirst')}</label>
        </div>
      )}

      {type === 'span' && (
        <div className="sch-form-row">
          {/* Once allowed, overlapping cannot be switched off again (contract §3.3). */}
          <input id={`${id}-overlap`} type="checkbox" checked={draft.allowOverlapping} disabled={form.stored.allowOverlapping}
            onChange={(event) => setDraft((d) => ({ ...d, allowOverlapping: event.target.checked }))} />
          <label htmlFor={`${id}-overlap`}>{t('questions.allowOverlapping')}</label>
        </div>
      )}
      <SectionActions form={form} label={question.name} />
    </form>
  );
}

interface AnnotatorVisibilityProps {
  id: string;
  required: boolean;
  visible: boolean;
  /** Shown at once, not only after an edit: a stored required-and-hidden question must be fixed here. */
  issue: Issue | undefined;
  onChange: (visible: boolean) => void;
}

/**
 * "Visible for annotators" (spec §3 Question). A required question is always visible, so its
 * toggle is on and locked, with a hint; should it ever be off, it stays enabled next to the
 * message so it can be switched back on.
 */
function AnnotatorVisibility({ id, required, visible, issue, onChange }: AnnotatorVisibilityProps) {
  const { t } = useTranslation(SETTINGS_NS);
  const hintId = `${id}-hint`;
  const locked = required && visible;
  return (
    <>
      <div className="sch-form-row">
        <input {...issueProps(id, issue)} type="checkbox" checked={visible} disabled={locked}
          aria-describedby={issue ? issueId(id) : locked ? hintId : undefined}
          onChange={(event) => onChange(event.target.checked)} />
        <label htmlFor={id}>{t('questions.visibleForAnnotators')}</label>
      </div>
      {locked && <p id={hintId} className="sch-muted">{t('questions.requiredAlwaysVisible')}</p>}
      <FieldIssue inputId={id} issue={issue} />
    </>
  );
}
