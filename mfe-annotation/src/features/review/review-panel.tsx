import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { datasetQuery, reopenRecord, reviewedRecordQuery, validateRecord, workspaceUsersQuery, type Field, type Question } from '@scholia/shared/api';
import { useApiConnection } from '../../embed/instance-connection.js';
import { bus } from '@scholia/shared/bus';
import { QuestionForm } from '../annotate/components/question-form.js';
import { saveFailureReason } from '../annotate/model/save-failure.js';
import type { Answers, AnswerValue } from '../annotate/model/types.js';
import { answerText, disagree, mostCommon, submittedAnswers } from './review-answers.js';

type FinalAnswers = Record<string, { value: unknown }>;

export interface ReviewPanelProps {
  datasetId: string;
  recordId: string;
  fields: Field[];
  questions: Question[];
  /** After a validation or a reopening. */
  /** After a validation or a reopening, saying which. */
  onChanged?: (change: 'validated' | 'reopened') => void;
  /**
   * Beside the annotator's own form (focus mode): nothing is shown while the record has no
   * submitted answer and no validation, since there is nothing to review yet.
   */
  onlyWhenReviewable?: boolean;
}

/** The workspace's members change seldom: read once a while, not after every answer. */
const MEMBERS_STALE_MS = 5 * 60_000;

/**
 * Usernames of the dataset's workspace members. Every write makes the shared cached GETs stale,
 * so under their usual keys the dataset and the members were read again with each record in
 * focus mode: their own keys keep them across answers. A response of someone no longer in the
 * workspace keeps the numbered name.
 */
function useMemberNames(datasetId: string): Map<string, string> {
  const dataset = useQuery({ ...datasetQuery(datasetId), queryKey: ['review-dataset', datasetId], staleTime: MEMBERS_STALE_MS });
  const workspaceId = dataset.data?.workspace_id ?? '';
  const members = useQuery({ ...workspaceUsersQuery(workspaceId), queryKey: ['review-members', workspaceId], staleTime: MEMBERS_STALE_MS, enabled: workspaceId !== '', retry: false });
  return useMemo(() => new Map((members.data?.items ?? []).map((user) => [user.id, user.username])), [members.data]);
}

/**
 * Review mode (owners and admins): every annotator's submitted answer per question side by side,
 * by username, disagreements marked; accept one answer per question or edit the final answer
 * with the answering widgets, and validate, or reopen a validated record.
 */
export function ReviewPanel({ datasetId, recordId, fields, questions, onChanged, onlyWhenReviewable = false }: ReviewPanelProps) {
  const { t } = useTranslation('annotation');
  const record = useQuery(reviewedRecordQuery(recordId));
  const connection = useApiConnection();
  const usernames = useMemberNames(datasetId);
  const [chosen, setChosen] = useState<FinalAnswers | undefined>();
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const answers = useMemo(() => submittedAnswers(questions, record.data?.responses ?? []), [questions, record.data]);
  const proposal = useMemo<FinalAnswers>(() => {
    if (record.data?.validation) return record.data.validation.values;
    const proposed: FinalAnswers = {};
    for (const [name, list] of answers) {
      const best = mostCommon(list);
      if (best) proposed[name] = { value: best.value };
    }
    return proposed;
  }, [answers, record.data]);
  const final = chosen ?? proposal;
  if (!record.data) return null;
  const validation = record.data.validation;
  const answered = (record.data.responses ?? []).some((response) => response.status === 'submitted');
  if (onlyWhenReviewable && !answered && !validation) return null;

  const run = async (change: 'validated' | 'reopened', action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      setChosen(undefined);
      setEditing(false);
      onChanged?.(change);
      bus.emit('progress:refresh-requested', { datasetId });
    } catch (e) {
      setError(t('review.failed', { reason: saveFailureReason(e, t) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="sch-card mfe-ann-review" data-testid="review-panel" aria-label={t('review.title')}>
      <h2 className="mfe-ann-review__title">
        {t('review.title')}{' '}
        {validation && <span className="mfe-ann-badge" data-testid="review-validated">{t('review.validated')}</span>}{' '}
        {validation?.stale && <span className="mfe-ann-badge" data-testid="review-stale">{t('review.stale')}</span>}
      </h2>
      {questions.map((question) => {
        const list = answers.get(question.name) ?? [];
        const split = disagree(list);
        return (
          <div key={question.id} className={`mfe-ann-review__question${split ? ' mfe-ann-review__question--disagree' : ''}`} data-testid={`review-question-${question.name}`} data-disagree={split}>
            <h3>
              <bdi>{question.title || question.name}</bdi>
              {split && <span className="mfe-ann-badge" data-testid="review-disagreement">{t('review.disagreement')}</span>}
            </h3>
            {list.length === 0 ? (
              <p className="sch-muted">{t('review.noAnswers')}</p>
            ) : (
              <ul className="mfe-ann-review__answers">
                {list.map((answer, i) => {
                  const accepted = final[question.name] !== undefined && JSON.stringify(final[question.name].value) === JSON.stringify(answer.value);
                  return (
                    <li key={`${answer.userId}-${i}`}>
                      <button
                        type="button"
                        className={`sch-button ${accepted ? '' : 'sch-button--ghost'}`}
                        aria-pressed={accepted}
                        disabled={Boolean(validation) || busy}
                        onClick={() => setChosen({ ...final, [question.name]: { value: answer.value } })}
                      >
                        <bdi>{answerText(answer.value)}</bdi>
                      </button>{' '}
                      <span className="sch-muted" data-testid="review-annotator">
                        {usernames.has(answer.userId) ? t('review.by', { name: usernames.get(answer.userId) }) : t('review.annotator', { index: i + 1 })}
                      </span>
                    </li>
                  );
                })}
              </ul>
            )}
            {final[question.name] !== undefined && (
              <p data-testid={`review-final-${question.name}`}>
                {t('review.final', { answer: answerText(final[question.name].value) })}
              </p>
            )}
          </div>
        );
      })}
      {editing && !validation && (
        <div data-testid="review-editor">
          <QuestionForm questions={questions} answers={asAnswers(final)} record={record.data} fields={fields} onAnswer={(name, value) => setChosen(withAnswer(final, name, value))} />
        </div>
      )}
      {error && <p role="alert">{error}</p>}
      <div className="mfe-ann-actions">
        {!validation && (
          <button type="button" className="sch-button sch-button--ghost" aria-pressed={editing} disabled={busy} onClick={() => setEditing(!editing)}>
            {editing ? t('review.doneEditing') : t('review.edit')}
          </button>
        )}
        {validation ? (
          <button type="button" className="sch-button sch-button--ghost" disabled={busy} onClick={() => void run('reopened', () => reopenRecord(recordId, connection))}>
            {t('review.reopen')}
          </button>
        ) : (
          <button type="button" className="sch-button" disabled={busy || Object.keys(final).length === 0} onClick={() => void run('validated', () => validateRecord(recordId, final, connection))}>
            {t('review.validate')}
          </button>
        )}
      </div>
    </section>
  );
}

const asAnswers = (final: FinalAnswers): Answers =>
  Object.fromEntries(Object.entries(final).map(([name, entry]) => [name, entry.value as AnswerValue]));

/** The final answers with one question's answer set, or removed when the widget cleared it. */
function withAnswer(final: FinalAnswers, name: string, value: AnswerValue | undefined): FinalAnswers {
  const next = { ...final };
  const empty = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
  if (empty) delete next[name];
  else next[name] = { value };
  return next;
}
