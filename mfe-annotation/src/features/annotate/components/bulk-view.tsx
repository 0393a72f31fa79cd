import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { announceResponsesChanged, searchAnnotationRecords, upsertMyResponses, type ResponseStatus } from '@scholia/shared/api';
import { useApiConnection } from '../../../embed/instance-connection.js';
import { notify } from '@scholia/shared/bus';
import { Select } from '@scholia/shared/ui';
import { responseEvent, useAnnotationEvents } from '../../../embed/annotation-events.js';
import { canSubmit, toResponseValues } from '../model/answer-validity.js';
import { criteriaKey, PAGE_SIZES, toSearchBody, type Criteria } from '../model/annotation-criteria.js';
import { describeFailure, runBulkAnnotation, SELECT_ALL_LIMIT, type BulkOutcome } from '../model/bulk-annotation.js';
import { formatPercent } from '@scholia/shared/i18n';
import { suggestionFor } from '../model/initial-answers.js';
import { searchTerms, termsIn, type SearchMarks } from '../model/search-terms.js';
import type { AnnotationRecord, Answers, Field, Question } from '../model/types.js';
import { recordAnswerStatus } from '../model/types.js';
import { QuestionForm } from './question-form.js';
import { RecordFields } from './record-fields.js';
import { RecordsLoadError } from './records-load-error.js';
import { useShortcuts } from './shortcut-scope.js';
import { SpanText, toSpans } from './span-question.js';
import { ConfirmDialog } from '../layout/confirm-dialog.js';
import { PanelResizer } from '../layout/panel-resizer.js';

export interface BulkViewProps {
  datasetId: string;
  criteria: Criteria;
  page: number;
  size: number;
  fields: Field[];
  questions: Question[];
  onPage: (page: number) => void;
  onSize: (size: number) => void;
  onEmpty: (empty: boolean) => void;
  reloadToken: number;
}

/** Pages of 50 and more are virtualised so 100 records render quickly. */
const VIRTUALISE_FROM = 50;

function BulkRecord({ record, position, fields, questions, selected, onSelect, collapsed, search }: {
  record: AnnotationRecord; position: number; fields: Field[]; questions: Question[]; selected: boolean; onSelect: (on: boolean) => void; collapsed: boolean; search: SearchMarks;
}) {
  const { t } = useTranslation('annotation');
  const status = recordAnswerStatus(record);
  const spans = useMemo(() => questions.filter((q) => q.settings.type === 'span' && suggestionFor(record, q)), [questions, record]);
  // A span suggestion shows its field with the spans painted in; the plain copy would repeat it.
  const shownBySpans = useMemo(() => new Set(spans.map((q) => String(q.settings.field))), [spans]);
  return (
    <article className={`mfe-ann-bulk-record${selected ? ' is-selected' : ''}`} data-testid="bulk-record" data-record-id={record.id} data-status={status}>
      <label className="mfe-ann-bulk-record__select">
        <input type="checkbox" checked={selected} onChange={(e) => onSelect(e.target.checked)} aria-label={t('bulk.selectRecord', { position })} />
        <span className={`mfe-ann-badge mfe-ann-badge--${status}`}>{t(`status.${status}`)}</span>
      </label>
      <div className="mfe-ann-bulk-record__content">
        <RecordFields fields={fields} record={record} skip={shownBySpans} collapsed={collapsed} search={search} />
        {/* A bulk-mode record shows only suggestions for span questions (spec §5). */}
        {spans.map((q) => {
          const fieldName = String(q.settings.field);
          return <SpanText key={q.id} question={q} field={fields.find((f) => f.name === fieldName)} text={String(record.fields[fieldName] ?? '')} spans={toSpans(suggestionFor(record, q)?.value)} label={undefined} onChange={() => {}} readOnly terms={termsIn(search, fieldName)} />;
        })}
      </div>
    </article>
  );
}

/** Many records a page; one answer to the non-span questions of the selection (spec §4). */
export function BulkView({ datasetId, criteria, page, size, fields, questions, onPage, onSize, onEmpty, reloadToken }: BulkViewProps) {
  const { t } = useTranslation('annotation');
  const queryClient = useQueryClient();
  const connection = useApiConnection();
  const key = criteriaKey(criteria);
  const search = useMemo(() => ({ terms: searchTerms(criteria.q), field: criteria.field }), [criteria.q, criteria.field]);
  const queryKey = ['annotation-bulk', datasetId, key, page, size, reloadToken];
  const { data, refetch, error } = useQuery({
    queryKey,
    queryFn: async () => {
      const result = await searchAnnotationRecords(datasetId, toSearchBody(criteria), { offset: (page - 1) * size, limit: size }, { connection });
      onEmpty(result.total === 0);
      return result;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
  const records = useMemo(() => data?.items.map((i) => i.record) ?? [], [data]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [allMatched, setAllMatched] = useState(false);
  const [collapsed, setCollapsed] = useState(true);
  const [answers, setAnswers] = useState<Answers>({});
  const [confirming, setConfirming] = useState<ResponseStatus | undefined>();
  const [progress, setProgress] = useState<number | undefined>();
  const [outcome, setOutcome] = useState<(BulkOutcome & { status: ResponseStatus }) | undefined>();
  const bulkQuestions = useMemo(() => questions.filter((q) => q.settings.type !== 'span'), [questions]);
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / size));
  const count = allMatched ? Math.min(total, SELECT_ALL_LIMIT) : selected.size;
  const pageSelected = records.length > 0 && records.every((r) => selected.has(r.id));

  const listRef = useRef<HTMLDivElement>(null);
  const virtual = records.length >= VIRTUALISE_FROM;
  const virtualizer = useVirtualizer({ count: virtual ? records.length : 0, getScrollElement: () => listRef.current, estimateSize: () => 160, overscan: 4 });

  const ask = (status: ResponseStatus) => {
    if (count === 0) return notify({ message: t('messages.noRecordSelected'), type: 'warning' });
    setOutcome(undefined);
    setConfirming(status);
  };

  const emit = useAnnotationEvents();
  const run = async (status: ResponseStatus) => {
    setConfirming(undefined);
    setProgress(0);
    try {
      let ids = [...selected];
      if (allMatched) {
        // Select-all: read up to 1000 records of the current filter first (spec §4, §9).
        const all = await searchAnnotationRecords(datasetId, toSearchBody(criteria), { offset: 0, limit: SELECT_ALL_LIMIT }, { connection });
        ids = all.items.map((i) => i.record.id);
      }
      const values = toResponseValues(bulkQuestions, answers);
      const result = await runBulkAnnotation(
        ids.map((record_id) => ({ record_id, status, values: status === 'discarded' && Object.keys(values).length === 0 ? null : values })),
        (part) => upsertMyResponses(part, { connection }),
        setProgress,
      );
      announceResponsesChanged(datasetId, connection);
      for (const recordId of result.succeeded) emit(responseEvent(datasetId, recordId, status, false));
      setOutcome({ ...result, status });
      if (result.succeeded.length > 0) notify({ message: t(`bulk.result_${status}`, { count: result.succeeded.length }), type: 'success' });
      if (!result.ok) notify({ message: t('messages.someFailed'), type: 'danger' });
      // The next selection starts from an empty form, not from the answer just applied.
      setAnswers({});
      setSelected(new Set(result.failed.map((f) => f.recordId)));
      setAllMatched(false);
      await queryClient.invalidateQueries({ queryKey: ['annotation-bulk', datasetId] });
      void refetch();
    } catch {
      // The select-all read failed; the global handler showed why. The form stays usable.
    } finally {
      setProgress(undefined);
    }
  };

  // Previous (←) and Next (→) turn the page, as they turn the record in focus mode (spec §2).
  const paging = useRef({ page, pages, onPage });
  paging.current = { page, pages, onPage };
  useShortcuts((action, event) => {
    const { page: current, pages: last, onPage: turn } = paging.current;
    if (action !== 'next' && action !== 'previous') return;
    event.preventDefault();
    if (action === 'next' && current < last) turn(current + 1);
    else if (action === 'previous' && current > 1) turn(current - 1);
  }, []);

  const setOne = (id: string, on: boolean) => {
    setAllMatched(false);
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  };

  if (error && !data) return <RecordsLoadError datasetId={datasetId} error={error} onRetry={() => void refetch()} />;

  const renderRecord = (record: AnnotationRecord, index: number) => (
    <BulkRecord key={record.id} record={record} position={(page - 1) * size + index + 1} fields={fields} questions={questions} selected={allMatched || selected.has(record.id)} onSelect={(on) => setOne(record.id, on)} collapsed={collapsed} search={search} />
  );

  return (
    <div className="mfe-ann-bulk" data-testid="bulk-view">
      <div className="mfe-ann-bulk__list">
        <div className="mfe-ann-bulk__toolbar">
          <label>
            <input type="checkbox" checked={pageSelected || allMatched} onChange={(e) => { setAllMatched(false); setSelected(e.target.checked ? new Set(records.map((r) => r.id)) : new Set()); }} />
            {' '}{t('bulk.selectPage')}
          </label>
          {pageSelected && total > records.length && !allMatched && (
            <button type="button" className="mfe-ann-link" onClick={() => setAllMatched(true)}>{t('bulk.selectAllMatched', { count: Math.min(total, SELECT_ALL_LIMIT) })}</button>
          )}
          {allMatched && <span>{t('bulk.allMatchedSelected', { count: Math.min(total, SELECT_ALL_LIMIT) })}</span>}
          <span className="mfe-ann-spacer" />
          <button type="button" className="sch-button sch-button--ghost" onClick={() => setCollapsed((c) => !c)}>{collapsed ? t('bulk.expand') : t('bulk.collapse')}</button>
          <Select label={t('bulk.pageSize')} value={size} onChange={(e) => onSize(Number(e.target.value))} data-testid="page-size">
            {PAGE_SIZES.map((n) => <option key={n} value={n}>{n}</option>)}
          </Select>
        </div>
        {virtual ? (
          <div ref={listRef} className="mfe-ann-bulk__scroller" data-testid="bulk-scroller">
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {virtualizer.getVirtualItems().map((row) => (
                <div key={row.key} data-index={row.index} ref={virtualizer.measureElement} style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${row.start}px)` }}>
                  {renderRecord(records[row.index]!, row.index)}
                </div>
              ))}
            </div>
          </div>
        ) : (
          records.map(renderRecord)
        )}
        <nav className="mfe-ann-pagination" aria-label={t('bulk.page', { page, pages })}>
          <button type="button" className="sch-button sch-button--ghost" disabled={page <= 1} onClick={() => onPage(page - 1)}>← {t('actions.previous')}</button>
          <span data-testid="bulk-page">{t('bulk.page', { page, pages })}</span>
          <button type="button" className="sch-button sch-button--ghost" disabled={page >= pages} onClick={() => onPage(page + 1)}>{t('actions.next')} →</button>
        </nav>
      </div>
      <PanelResizer />
      <aside className="mfe-ann-bulk__form mfe-ann-panel" data-testid="questions-panel">
        <div className="mfe-ann-panel__body">
          <h2>{t('bulk.formTitle')}</h2>
          <p data-testid="bulk-selected">{t('bulk.selected', { count })}</p>
          {questions.some((q) => q.settings.type === 'span') && <p className="sch-muted">{t('bulk.spanNote')}</p>}
          {records[0] && <QuestionForm questions={bulkQuestions} answers={answers} record={records[0]} fields={fields} onAnswer={(name, value) => setAnswers((a) => ({ ...a, [name]: value }))} bulk />}
          {progress !== undefined && (
            <div>
              <progress max={100} value={progress} aria-label={t('bulk.progress', { percent: formatPercent(progress, 0) })} />
              <p data-testid="bulk-progress">{t('bulk.progress', { percent: formatPercent(progress, 0) })}</p>
            </div>
          )}
          {outcome && (
            <div data-testid="bulk-outcome">
              <p>{t(`bulk.result_${outcome.status}`, { count: outcome.succeeded.length })}</p>
              {outcome.failed.length > 0 && (
                <ul className="mfe-ann-errors">
                  {outcome.failed.map((f) => <li key={f.recordId}>{describeFailure(f, t)}</li>)}
                </ul>
              )}
            </div>
          )}
        </div>
        <div className="mfe-ann-actions mfe-ann-actions--main mfe-ann-panel__actions" data-testid="record-actions">
          <button type="button" className="sch-button sch-button--ghost" onClick={() => ask('discarded')} disabled={progress !== undefined}>{t('actions.discard')}</button>
          <button type="button" className="sch-button sch-button--ghost" onClick={() => ask('draft')} disabled={progress !== undefined}>{t('actions.draft')}</button>
          <button type="button" className="sch-button" onClick={() => ask('submitted')} disabled={progress !== undefined || !canSubmit(bulkQuestions, answers)}>{t('actions.submit')}</button>
        </div>
        {confirming && (
          <ConfirmDialog
            message={t('bulk.confirm', { count })}
            confirmLabel={t('bulk.confirmAction')}
            cancelLabel={t('bulk.cancel')}
            onConfirm={() => void run(confirming)}
            onCancel={() => setConfirming(undefined)}
          />
        )}
      </aside>
    </div>
  );
}
