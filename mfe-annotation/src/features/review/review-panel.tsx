import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, reopenRecord, reviewedRecordQuery, validateRecord, type Question } from '@scholia/shared/api';
import { bus } from '@scholia/shared/bus';
import { answerText, disagree, mostCommon, submittedAnswers } from './review-answers.js';

type FinalAnswers = Record<string, { value: unknown }>;

/**
 * Review mode (owners and admins): every annotator's submitted answer per question side by side,
 * disagreements marked; accept one answer per question and validate, or reopen a validated record.
 */
export function ReviewPanel({ datasetId, recordId, questions }: { datasetId: string; recordId: string; questions: Question[] }) {
  const { t } = useTranslation('annotation');
  const record = useQuery(reviewedRecordQuery(recordId));
  const [chosen, setChosen] = useState<FinalAnswers | undefined>();
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

  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      setChosen(undefined);
      bus.emit('progress:refresh-requested', { datasetId });
    } catch (e) {
      setError(e instanceof ApiError ? (e.detail ?? e.message) : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="sch-card mfe-ann-review" data-testid="review-panel" aria-label={t('review.title')}>
      <h3>
        {t('review.title')}{' '}
        {validation && <span className="mfe-ann-badge" data-testid="review-validated">{t('review.validated')}</span>}
      </h3>
      {questions.map((question) => {
        const list = answers.get(question.name) ?? [];
        const split = disagree(list);
        return (
          <div key={question.id} className={`mfe-ann-review__question${split ? ' mfe-ann-review__question--disagree' : ''}`} data-testid={`review-question-${question.name}`} data-disagree={split}>
            <h4>
              {question.title || question.name}
              {split && <span className="mfe-ann-badge" data-testid="review-disagreement">{t('review.disagreement')}</span>}
            </h4>
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
                        {answerText(answer.value)}
                      </button>{' '}
                      <span className="sch-muted">{t('review.annotator', { index: i + 1 })}</span>
                    </li>
                  );
                })}
              </ul>
            )}
            {final[question.name] !== undefined && (
              <p data-testid={`review-final-${question.name}`}>
                {t('review.final')}: {answerText(final[question.name].value)}
              </p>
            )}
          </div>
        );
      })}
      {error && <p role="alert">{error}</p>}
      <div className="mfe-ann-actions">
        {validation ? (
          <button type="button" className="sch-button sch-button--ghost" disabled={busy} onClick={() => void run(() => reopenRecord(recordId))}>
            {t('review.reopen')}
          </button>
        ) : (
          <button type="button" className="sch-button" disabled={busy || Object.keys(final).length === 0} onClick={() => void run(() => validateRecord(recordId, final))}>
            {t('review.validate')}
          </button>
        )}
      </div>
    </section>
  );
}
