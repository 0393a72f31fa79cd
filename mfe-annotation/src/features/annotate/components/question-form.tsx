import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { formatScore, suggestionFor, toRanking } from '../model/initial-answers.js';
import type { AnnotationRecord, Answers, AnswerValue, Field, Question, RecordSuggestion, SpanItem } from '../model/types.js';
import { questionOptions } from '../model/types.js';
import { LabelQuestion, RatingQuestion } from './choice-questions.js';
import { Markdown } from './markdown.js';

// dnd-kit (~20 KB gz) loads only for datasets with a ranking question.
const RankingQuestion = lazy(() => import('./ranking-question.js').then((m) => ({ default: m.RankingQuestion })));
import { SpanLabels } from './span-question.js';
import { TextQuestion } from './text-question.js';

/** A suggested value in the words the annotator sees: option titles, a ranking in order. */
export function describeSuggestion(question: Question, value: unknown, listSeparator = ', '): string {
  const titles = new Map(questionOptions(question).map((o) => [o.value, o.text]));
  const title = (v: unknown) => titles.get(String(v)) ?? String(v);
  if (question.settings.type === 'ranking') {
    return toRanking(value).filter((r) => r.rank !== null).sort((a, b) => a.rank! - b.rank!).map((r) => `${r.rank}. ${title(r.value)}`).join(listSeparator);
  }
  if (question.settings.type === 'span' && Array.isArray(value)) return [...new Set((value as SpanItem[]).map((s) => title(s.label)))].join(listSeparator);
  if (Array.isArray(value)) return value.map(title).join(listSeparator);
  return title(value);
}

/** Suggestion next to its question: value, agent and score with 1 decimal (spec §1, §9). */
export function SuggestionLine({ question, suggestion }: { question: Question; suggestion: RecordSuggestion | undefined }) {
  const { t } = useTranslation('annotation');
  if (!suggestion) return null;
  const score = formatScore(suggestion.score);
  const separator = t('format.listSeparator');
  const parts = [
    describeSuggestion(question, suggestion.value),
    suggestion.agent ? t('record.suggestionBy', { agent: suggestion.agent }) : undefined,
    score ? t('record.score', { score }) : undefined,
  ].filter((part): part is string => Boolean(part));
  return (
    <p className="mfe-ann-suggestion" data-testid={`suggestion-${question.name}`}>
      <span className="mfe-ann-suggestion__tag">{t('record.suggestion')}</span>{' '}
      <bdi>{parts.join(separator)}</bdi>
    </p>
  );
}

export interface QuestionFormProps {
  questions: Question[];
  answers: Answers;
  record: AnnotationRecord;
  fields: Field[];
  onAnswer: (name: string, value: AnswerValue | undefined) => void;
  /** Bulk: span questions show only the record's suggestion. */
  bulk?: boolean;
  /** Questions whose value is the preselected suggestion, untouched: a digit replaces it. */
  preselected?: ReadonlySet<string>;
  /** The label each span question gives a selection in the record pane (else its first). */
  spanLabels?: Readonly<Record<string, string>>;
  onSpanLabel?: (question: string, label: string) => void;
}

export function QuestionForm({ questions, answers, record, fields, onAnswer, bulk, preselected, spanLabels, onSpanLabel }: QuestionFormProps) {
  const { t } = useTranslation('annotation');
  return (
    <div className="mfe-ann-questions">
      {questions.map((question) => {
        const suggestion = bulk ? undefined : suggestionFor(record, question);
        const value = answers[question.name];
        const onChange = (next: unknown) => onAnswer(question.name, next as AnswerValue | undefined);
        let input;
        switch (question.settings.type) {
          case 'label_selection':
          case 'multi_label_selection':
            input = <LabelQuestion question={question} value={value} suggestion={suggestion} preselected={preselected?.has(question.name)} onChange={onChange} />;
            break;
          case 'rating':
            input = <RatingQuestion question={question} value={value} suggestion={suggestion} preselected={preselected?.has(question.name)} onChange={onChange} />;
            break;
          case 'ranking':
            input = (
              <Suspense fallback={<p className="sch-loading" aria-busy="true">…</p>}>
                <RankingQuestion question={question} value={value} onChange={onChange} />
              </Suspense>
            );
            break;
          case 'span':
            input = (
              <SpanLabels
                question={question}
                field={fields.find((f) => f.name === String(question.settings.field))}
                text={String(record.fields[String(question.settings.field)] ?? '')}
                value={value}
                label={spanLabels?.[question.name] ?? questionOptions(question)[0]?.value}
                onLabel={(label) => onSpanLabel?.(question.name, label)}
                onChange={onChange}
              />
            );
            break;
          default:
            input = <TextQuestion question={question} value={value} onChange={onChange} />;
        }
        return (
          <fieldset key={question.id} className="mfe-ann-question" data-question={question.name} data-testid={`question-${question.name}`}>
            <legend>
              <bdi>{question.title}</bdi>
              {question.required && <span className="mfe-ann-required" title={t('record.required')}> *</span>}
            </legend>
            {question.description && <Markdown source={question.description} className="sch-muted" />}
            {input}
            <SuggestionLine question={question} suggestion={suggestion} />
          </fieldset>
        );
      })}
    </div>
  );
}
