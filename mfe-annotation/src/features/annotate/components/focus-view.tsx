import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type MutableRefObject, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteMyResponse, announceResponsesChanged, searchAnnotationRecords, type MyResponseBody } from '@scholia/shared/api';
import { useApiConnection } from '../../../embed/instance-connection.js';
import { notify } from '@scholia/shared/bus';
import { responseEvent, useAnnotationEvents } from '../../../embed/annotation-events.js';
import { currentOutboxOwner, pushUndo, saveResponse, undoLast, type UndoneAction } from '../api/use-response-actions.js';
import { canSubmit, hasAnyAnswer, toResponseValues } from '../model/answer-validity.js';
import { saveFailureReason } from '../model/save-failure.js';
import { criteriaKey, toSearchBody, type Criteria } from '../model/annotation-criteria.js';
import { initialAnswers, queryScorePercent } from '../model/initial-answers.js';
import { RecordQueue, type QueueItem } from '../model/record-queue.js';
import { readAnchor, rememberAnchor } from '../model/queue-anchor.js';
import { searchTerms, termsIn } from '../model/search-terms.js';
import type { AnnotationRecord, Answers, AnswerValue, Field, Question, RecordStatusFilter } from '../model/types.js';
import { ownResponse, questionOptions, recordAnswerStatus } from '../model/types.js';
import { QuestionForm } from './question-form.js';
import { RecordsLoadError } from './records-load-error.js';
import { RecordFields } from './record-fields.js';
import { SpanText, toSpans } from './span-question.js';
import { ReviewPanel } from '../../review/review-panel.js';
import { useMayTakeFocus, useShortcuts } from './shortcut-scope.js';
import { firstUnansweredQuestion, preselectedQuestions, questionFocusTarget } from '../model/question-focus.js';
import { isEditable } from './keyboard-target.js';
import { PanelResizer } from '../layout/panel-resizer.js';

/** Time allowed between keystrokes before the draft is saved (spec: auto-draft while typing). */
export const AUTO_DRAFT_DELAY_MS = 800;

export interface FocusViewProps {
  datasetId: string;
  criteria: Criteria;
  page: number;
  fields: Field[];
  questions: Question[];
  vectors: { name: string; title: string }[];
  metadataVisible: string[];
  onPage: (page: number, replace?: boolean) => void;
  onFindSimilar: (recordId: string, vector: string) => void;
  onEmpty: (empty: boolean) => void;
  /** An empty page other than the first: back to page 1 with a fresh queue (spec §4). */
  onBackToFirst: () => void;
  reloadToken: number;
  /** Owners and admins: review mode (every annotator's answer, validate) under the form. */
  reviewable?: boolean;
}

/** One record at a time from the buffered queue (spec §2, §4). */
export function FocusView(props: FocusViewProps) {
  const { datasetId, criteria, page, onPage, reloadToken } = props;
  const key = criteriaKey(criteria);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const connection = useApiConnection();
  const queue = useMemo(() => {
    const body = toSearchBody(criteria);
    return new RecordQueue(
      (offset, limit, background) => searchAnnotationRecords(datasetId, body, { offset, limit }, { globalErrorHandler: !background, connection }),
      criteria.similar ? { batchSize: criteria.similar.limit, bufferSize: 0, buffering: false } : { batchSize: 10, bufferSize: 5, buffering: true },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [datasetId, key, reloadToken, connection]);
  const [state, setState] = useState<'loading' | 'ready' | 'empty' | 'error'>('loading');
  const [failure, setFailure] = useState<{ error: unknown; retry: () => void }>();
  const [attempt, setAttempt] = useState(0);

  // A fresh queue (a reload, a reconnect, a record undone elsewhere) reopens on the record last
  // shown, by id: the page number alone would skip the records still to do.
  const resumed = useRef<RecordQueue>(undefined);
  useEffect(() => {
    let cancelled = false;
    setFailure(undefined);
    if (!queue.get(page)) setState('loading');
    // The position is this user's on this server: the user whose answers an outbox would hold.
    const remembered = resumed.current !== queue && !criteria.similar
      ? currentOutboxOwner(connection).then((owner) => readAnchor(owner, datasetId, key), () => [])
      : Promise.resolve([]);
    const resume = remembered.then((ids) => (ids.length ? queue.resume(page, ids) : undefined));
    resume.then((found) => {
      if (cancelled) return;
      resumed.current = queue;
      if (found !== undefined && found !== page) return onPage(found, true);
      return queue.ensure(page).then((result) => {
        if (cancelled) return;
        if (result === 'back-to-first') return props.onBackToFirst();
        setState(result === 'ready' ? 'ready' : 'empty');
        props.onEmpty(result === 'empty');
        queue.maybeBuffer(page)?.then(() => !cancelled && rerender());
      });
    }).catch((error: unknown) => {
      if (cancelled) return;
      setState('error');
      setFailure({ error, retry: () => setAttempt((n) => n + 1) });
    });
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queue, page, attempt]);

  // Ctrl+Z: the last answer goes back on the server and the screen back to its record, which
  // keeps its place in the queue (and "Record n of N" its count). `restored` restarts the editor
  // when the undone record is the one shown.
  const [restored, setRestored] = useState(0);
  /** Whether the record just left had focus: the next one then takes it, even in an embedding. */
  const focusCarried = useRef(false);
  useShortcuts((action, event) => {
    if (action !== 'undo') return;
    event.preventDefault();
    void undoLast(connection, datasetId).then((undone) => {
      if (!undone) return;
      const target = restoreUndone(queue, undone, criteria.status);
      if (target === undefined) return props.onBackToFirst();
      setRestored((n) => n + 1);
      onPage(target);
    }, () => undefined);
  }, [queue, datasetId, criteria.status, connection]);

  const item = queue.get(page);
  // The record shown and those loaded after it, as one value: storage is written when it changes, not on every render.
  const anchorIds: string[] = [];
  for (let next = page; !criteria.similar && queue.get(next); next += 1) anchorIds.push(queue.get(next)!.record.id);
  const anchor = anchorIds.join(' ');
  // Only the latest position is written, also when the page is unmounted right after it moved.
  const anchorWrites = useRef(0);
  useEffect(() => {
    const [shown, ...following] = anchor ? anchor.split(' ') : [];
    if (!shown) return;
    const write = ++anchorWrites.current;
    currentOutboxOwner(connection).then((owner) => {
      if (write === anchorWrites.current) rememberAnchor(owner, datasetId, key, shown, following);
    }, () => undefined);
  }, [anchor, datasetId, key, connection]);
  if (state === 'error') return failure ? <RecordsLoadError datasetId={datasetId} error={failure.error} onRetry={failure.retry} /> : null;
  if (!item) return state === 'empty' ? null : <p className="sch-loading" aria-busy="true">…</p>;
  return <RecordEditor key={`${item.record.id}:${restored}`} {...props} item={item} queue={queue} total={queue.total} onRecordChanged={rerender} focusCarried={focusCarried} />;
}

/**
 * Puts an undone answer on its record in the queue; returns the record's page, or none when the
 * record is not in this queue (another filter was chosen since).
 */
export function restoreUndone(queue: RecordQueue, { entry, response }: UndoneAction, status: RecordStatusFilter): number | undefined {
  const page = queue.pageOf(entry.recordId);
  const item = page === undefined ? undefined : queue.get(page);
  if (!item) return undefined;
  const record = { ...item.record, responses: response ? [response] : [] };
  queue.update(record);
  queue.setLeftFilter(record.id, recordAnswerStatus(record) !== status);
  return page;
}

interface RecordEditorProps extends FocusViewProps {
  item: QueueItem;
  queue: RecordQueue;
  total: number;
  onRecordChanged: () => void;
  focusCarried: MutableRefObject<boolean>;
}

function RecordEditor({ datasetId, criteria, page, fields, questions, vectors, metadataVisible, item, queue, total, onPage, onFindSimilar, onRecordChanged, reviewable, focusCarried }: RecordEditorProps) {
  const { t } = useTranslation('annotation');
  const [record, setRecord] = useState<AnnotationRecord>(item.record);
  const [answers, setAnswers] = useState<Answers>(() => initialAnswers(item.record, questions));
  const [saving, setSaving] = useState(false);
  /** Why the last explicit save failed; the answers stay in the form for another try. */
  const [saveError, setSaveError] = useState<string>();
  const [warned, setWarned] = useState(false);
  const emit = useAnnotationEvents();
  const connection = useApiConnection();
  const keptOffline = useRef(false);
  const responseRef = useRef(ownResponse(item.record));
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const edited = useRef(false);
  const draftTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** The auto-draft waiting for its timer: leaving the record sends it at once instead. */
  const pendingDraft = useRef<(() => void) | undefined>(undefined);
  const recordRef = useRef(record);
  recordRef.current = record;
  const [preselected, setPreselected] = useState<ReadonlySet<string>>(() => preselectedQuestions(item.record, questions));
  const articleRef = useRef<HTMLElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  /** The question the keyboard is on; a digit typed elsewhere in the record goes to it. */
  const currentQuestion = useRef(firstUnansweredQuestion(item.record, questions)?.name);
  const mayTakeFocus = useMayTakeFocus();

  const status: RecordStatusFilter = recordAnswerStatus(record);
  const baseline = useMemo(() => JSON.stringify(initialAnswers(record, questions)), [record, questions]);
  const dirty = JSON.stringify(answers) !== baseline && edited.current;
  const submittable = canSubmit(questions, answers);
  /** The label each span question gives a selection, chosen in the questions panel. */
  const [spanLabels, setSpanLabels] = useState<Readonly<Record<string, string>>>({});

  const applyRecord = useCallback((next: AnnotationRecord) => {
    setRecord(next);
    queue.update(next);
    queue.setLeftFilter(next.id, recordAnswerStatus(next) !== criteria.status);
  }, [queue, criteria.status]);

  /** Saves in order: an auto-draft in flight and a click on Submit never race to create twice. */
  const save = useCallback((body: MyResponseBody, options: { undo: boolean }) => {
    const run = async () => {
      const before = responseRef.current;
      const outcome = await saveResponse(connection, datasetId, record.id, before?.id || undefined, body);
      keptOffline.current = outcome.kind === 'kept-offline';
      const response = outcome.response.id ? outcome.response : { ...outcome.response, id: before?.id ?? '' };
      responseRef.current = response;
      if (options.undo && outcome.kind === 'saved') {
        pushUndo(connection, { datasetId, recordId: record.id, responseId: response.id, previous: before ? { status: before.status, values: before.values } : null });
      }
      return response;
    };
    const next = chain.current.then(run, run);
    chain.current = next.catch(() => undefined);
    return next;
  }, [connection, datasetId, record.id]);

  /** An explicit action supersedes the waiting auto-draft (else it would land after a submit). */
  const cancelDraft = () => {
    clearTimeout(draftTimer.current);
    pendingDraft.current = undefined;
  };

  const act = async (statusToSend: 'submitted' | 'draft' | 'discarded') => {
    if (statusToSend === 'submitted' && !submittable) return;
    cancelDraft();
    setSaving(true);
    setSaveError(undefined);
    let response;
    try {
      response = await save({ status: statusToSend, values: toResponseValues(questions, answers) }, { undo: true });
    } catch (error) {
      // Said here too: a host page may show no toasts. The form keeps the answers to retry.
      setSaveError(saveFailureReason(error, t));
      setSaving(false);
      return;
    }
    emit(responseEvent(datasetId, record.id, statusToSend, keptOffline.current));
    edited.current = false;
    // This editor is left at once: give the answer to the queue only (no render of the record
    // being left), then show the next record, which is already buffered (spec §4).
    const next = { ...record, responses: [response] };
    queue.update(next);
    queue.setLeftFilter(next.id, recordAnswerStatus(next) !== criteria.status);
    onPage(page + 1);
  };

  const clear = async () => {
    cancelDraft();
    const existing = responseRef.current;
    edited.current = false;
    if (existing?.id) {
      try {
        await chain.current;
        await deleteMyResponse(existing.id, { connection });
        pushUndo(connection, { datasetId, recordId: record.id, responseId: undefined, previous: { status: existing.status, values: existing.values } });
        announceResponsesChanged(datasetId, connection);
      } catch {
        return;
      }
    }
    responseRef.current = undefined;
    const cleared = { ...record, responses: [] };
    applyRecord(cleared);
    setPreselected(new Set());
    setAnswers({});
  };

  const reset = () => {
    cancelDraft();
    edited.current = false;
    setPreselected(preselectedQuestions(record, questions));
    setAnswers(initialAnswers(record, questions));
  };

  const onAnswer = (name: string, value: AnswerValue | undefined) => {
    edited.current = true;
    setWarned(false);
    setPreselected((current) => (current.has(name) ? new Set([...current].filter((q) => q !== name)) : current));
    setAnswers((current) => ({ ...current, [name]: value }));
  };

  // Keyboard first: a record opens on its first unanswered question, so digits answer at once;
  // after a submit, draft or discard the next record does the same.
  useEffect(() => {
    const carried = focusCarried.current;
    focusCarried.current = false;
    if (!carried && !mayTakeFocus()) return;
    const first = currentQuestion.current;
    const target = first && formRef.current ? questionFocusTarget(formRef.current, first) : null;
    if (!target) return;
    // The record is read first: the page never scrolls away from it (one column on a phone puts
    // the questions below). Side by side, the questions panel scrolls on its own to the question.
    target.focus({ preventScroll: true });
    if (!target.closest('[data-layout="narrow"]')) target.scrollIntoView?.({ block: 'nearest' });
    // On mount only: later focus is the annotator's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // Runs before the record's elements leave the page, while its focused element is still inside.
  useLayoutEffect(() => () => {
    focusCarried.current = Boolean(articleRef.current?.contains(document.activeElement));
  }, [focusCarried]);

  // Auto-draft: pending and draft records are saved as drafts shortly after the last change.
  // Only the response (not the form) takes the reply, so keystrokes typed meanwhile survive.
  useEffect(() => {
    pendingDraft.current = undefined;
    if (!edited.current || (status !== 'pending' && status !== 'draft') || !hasAnyAnswer(questions, answers)) return;
    const saveDraft = () => {
      pendingDraft.current = undefined;
      save({ status: 'draft', values: toResponseValues(questions, answers) }, { undo: false })
        .then((response) => {
          edited.current = false;
          // From the ref, not a state updater: after leaving the record an updater never runs,
          // and the queue must still learn of the draft.
          const next = { ...recordRef.current, responses: [response] };
          setRecord(next);
          queue.update(next);
          queue.setLeftFilter(next.id, 'draft' !== criteria.status);
          onRecordChanged();
          // A host keeping its own queue learns of every draft, also one sent as the page closed.
          emit(responseEvent(datasetId, next.id, 'draft', keptOffline.current));
        })
        .catch(() => undefined);
    };
    pendingDraft.current = saveDraft;
    draftTimer.current = setTimeout(saveDraft, AUTO_DRAFT_DELAY_MS);
    return () => clearTimeout(draftTimer.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [answers]);

  // Leaving the record (Next, Previous, a filter, bulk mode) before the timer fired would drop the
  // last answers: send the waiting draft now.
  useEffect(() => () => pendingDraft.current?.(), []);

  const go = (target: number) => {
    if (target < 1) return;
    if (dirty && (status === 'submitted' || status === 'discarded') && !warned) {
      setWarned(true);
      notify({ message: t('messages.unsaved'), type: 'warning' });
      return;
    }
    onPage(target);
  };

  // Leaving the page with edits that were not saved.
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  useEffect(() => {
    emit({ type: 'record-shown', datasetId, recordId: record.id, status });
    // Once per record shown, not on each change of its status.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [record.id]);

  const handlers = useRef({ act, go, clear });
  handlers.current = { act, go, clear };
  useShortcuts((action, event) => {
    if (action === 'pick') {
      // A digit typed on the record's text or an action: the current question answers it.
      const form = formRef.current;
      if (!form || (event.target instanceof Node && form.querySelector('.mfe-ann-questions')?.contains(event.target)) || isEditable(event.target)) return;
      const target = currentQuestion.current ? questionFocusTarget(form, currentQuestion.current) : null;
      if (!target) return;
      event.preventDefault();
      target.focus();
      target.dispatchEvent(new KeyboardEvent('keydown', { key: event.key, code: event.code, bubbles: true, cancelable: true }));
      return;
    }
    const run = { submit: () => handlers.current.act('submitted'), draft: () => handlers.current.act('draft'), discard: () => handlers.current.act('discarded'), next: () => handlers.current.go(page + 1), previous: () => handlers.current.go(page - 1) }[action as string];
    if (!run) return;
    event.preventDefault();
    void run();
  }, [page]);

  const search = useMemo(() => ({ terms: searchTerms(criteria.q), field: criteria.field }), [criteria.q, criteria.field]);

  // A span question's text stays in the record pane, in its field's place; its labels are in the
  // questions panel (the first span question of a field, should two share one).
  const spanTexts = new Map<string, ReactNode>();
  for (const question of questions) {
    const fieldName = String(question.settings.field);
    if (question.settings.type !== 'span' || spanTexts.has(fieldName)) continue;
    spanTexts.set(fieldName, (
      <SpanText
        question={question}
        field={fields.find((f) => f.name === fieldName)}
        text={String(record.fields[fieldName] ?? '')}
        spans={toSpans(answers[question.name])}
        label={spanLabels[question.name] ?? questionOptions(question)[0]?.value}
        onChange={(value) => onAnswer(question.name, value as AnswerValue | undefined)}
        terms={termsIn(search, fieldName)}
      />
    ));
  }

  // Only a similarity search scores in [0, 1]; a text search's relevance is no percentage.
  const score = criteria.similar ? queryScorePercent(item.query_score) : undefined;
  const visibleMetadata = Object.entries(record.metadata ?? {}).filter(([k]) => metadataVisible.includes(k));
  const title = [
    t('record.position', { page, total }),
    t(`status.${status}`),
    ...(record.status === 'completed' ? [t('record.completed')] : []),
    ...(score ? [t('similarity.score', { value: score })] : []),
  ];

  return (
    <article ref={articleRef} className="mfe-ann-record" data-testid="focus-record" data-record-id={record.id} data-status={status}>
      {/* Scrolls on its own (a long record on a phone too): a named stop of the keyboard, whose arrows scroll it. */}
      <div className="mfe-ann-record__pane" data-testid="record-pane" role="region" aria-label={t('record.pane')} tabIndex={0}>
        <header className="mfe-ann-record__header">
          {/* One row at any width: the title cuts with an ellipsis, its full text in the tooltip. */}
          <div className="mfe-ann-record__title" title={title.join(t('format.listSeparator'))}>
            <span data-testid="record-position">{title[0]}</span>
            <span className={`mfe-ann-badge mfe-ann-badge--${status}`} data-testid="record-status">{t(`status.${status}`)}</span>
            {record.status === 'completed' && <span className="mfe-ann-badge">{t('record.completed')}</span>}
            {score && <span className="mfe-ann-badge" data-testid="query-score">{t('similarity.score', { value: score })}</span>}
          </div>
          {vectors.map((v) => {
            const label = `${t('similarity.find')}${vectors.length > 1 ? ` (${v.title})` : ''}`;
            return (
              <button key={v.name} type="button" className="sch-button sch-button--ghost mfe-ann-record__similar" title={label} onClick={() => onFindSimilar(record.id, v.name)}>
                <span className="mfe-ann-ellipsis">{label}</span>
              </button>
            );
          })}
          <span className="mfe-ann-spacer" />
          <button type="button" className="sch-button sch-button--ghost mfe-ann-record__nav" title={t('actions.previous')} onClick={() => go(page - 1)} disabled={page <= 1}>
            ← <span className="mfe-ann-record__nav-label">{t('actions.previous')}</span>
          </button>
          <button type="button" className="sch-button sch-button--ghost mfe-ann-record__nav" title={t('actions.next')} onClick={() => go(page + 1)} disabled={page >= total}>
            <span className="mfe-ann-record__nav-label">{t('actions.next')}</span> →
          </button>
        </header>
        <div className="mfe-ann-record__fields">
          <RecordFields fields={fields} record={record} replace={spanTexts} search={search} />
          {visibleMetadata.length > 0 && (
            // Closed by default: the record's text comes first, its metadata on demand.
            <details className="mfe-ann-metadata" data-testid="record-metadata">
              <summary>{t('record.metadata')}</summary>
              <dl>
                {visibleMetadata.map(([k, v]) => <div key={k}><dt>{k}</dt><dd dir="auto">{typeof v === 'object' ? JSON.stringify(v) : String(v)}</dd></div>)}
              </dl>
            </details>
          )}
        </div>
        {reviewable && <ReviewPanel datasetId={datasetId} recordId={record.id} fields={fields} questions={questions} onlyWhenReviewable />}
      </div>
      <PanelResizer />
      <form
        ref={formRef}
        className="mfe-ann-record__form mfe-ann-panel"
        data-testid="questions-panel"
        onSubmit={(e) => { e.preventDefault(); void act('submitted'); }}
        onFocus={(e) => { currentQuestion.current = e.target.closest('[data-question]')?.getAttribute('data-question') ?? currentQuestion.current; }}
      >
        <div className="mfe-ann-panel__body">
          <QuestionForm questions={questions} answers={answers} record={record} fields={fields} onAnswer={onAnswer} preselected={preselected} spanLabels={spanLabels} onSpanLabel={(name, label) => setSpanLabels((current) => ({ ...current, [name]: label }))} />
          {saveError && <p role="alert" className="mfe-ann-save-error" data-testid="save-error">{t('embed.saveFailed', { reason: saveError })}</p>}
        </div>
        <div className="mfe-ann-panel__actions">
          {/* One small line over the actions: Clear, Reset and why Submit waits. */}
          <div className="mfe-ann-panel__minor">
            <div className="mfe-ann-actions mfe-ann-actions--minor">
              <button type="button" className="sch-button sch-button--ghost" onClick={() => void clear()} disabled={saving}>{t('actions.clear')}</button>
              <button type="button" className="sch-button sch-button--ghost" onClick={reset} disabled={saving || !dirty}>{t('actions.reset')}</button>
            </div>
            {!submittable && <p className="sch-muted mfe-ann-panel__hint" data-testid="complete-required">{t('messages.completeRequired')}</p>}
          </div>
          {/* On a phone this group is pinned to the bottom of the screen. */}
          <div className="mfe-ann-actions mfe-ann-actions--main" data-testid="record-actions">
            <button type="button" className="sch-button sch-button--ghost" aria-keyshortcuts="Control+Backspace" onClick={() => void act('discarded')} disabled={saving}>
              {t('actions.discard')} <kbd className="mfe-ann-key" aria-hidden="true">{t('keys.discard')}</kbd>
            </button>
            <button type="button" className="sch-button sch-button--ghost" aria-keyshortcuts="Control+S" onClick={() => void act('draft')} disabled={saving}>
              {t('actions.draft')} <kbd className="mfe-ann-key" aria-hidden="true">{t('keys.draft')}</kbd>
            </button>
            <button type="submit" className="sch-button" aria-keyshortcuts="Control+Enter" disabled={saving || !submittable}>
              {t('actions.submit')} <kbd className="mfe-ann-key" aria-hidden="true">{t('keys.submit')}</kbd>
            </button>
          </div>
        </div>
      </form>
    </article>
  );
}
