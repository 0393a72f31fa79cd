import { useQuery } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { datasetProgressQuery } from '@scholia/shared/api';
import { useApiConnection } from '../../../embed/instance-connection.js';
import { formatNumber } from '@scholia/shared/i18n';
import { DatasetLoadError, datasetLoadErrorKey, SegmentedControl } from '@scholia/shared/ui';
import { AnnotationOverview, DatasetSettingsLink } from '../../progress/components/annotation-overview.js';
import { ProgressMeter } from '../../progress/components/progress-meter.js';
import { TeamProgress } from '../../progress/components/team-progress.js';
import { AgreementSummary } from '../../progress/components/agreement-summary.js';
import { useAnnotationSettings, useMyMetrics } from '../api/use-annotation-settings.js';
import { startSendingKeptAnswers } from '../api/kept-answers-sender.js';
import { criteriaKey, hasQuery, readUrlState, writeUrlState, type Criteria, type ViewState } from '../model/annotation-criteria.js';

import { FocusView } from './focus-view.js';
import { useBulkView } from './use-bulk-view.js';
import { ShortcutHelp } from './shortcut-help.js';
import { FilterBar } from './filter-bar.js';
import { GuidelinesDrawer } from '../layout/guidelines-drawer.js';
import { usePanelWidth } from '../layout/panel-width.js';
import { PopoverDetails } from '../layout/popover-details.js';
import { useNarrowPage } from '../layout/use-narrow-page.js';
import { useAnnotationEvents } from '../../../embed/annotation-events.js';
import { ScholiaLink } from '../../../embed/scholia-link.js';
import { ReviewView } from '../../review/review-view.js';

function EmptyState({ datasetId, criteria, isAdmin }: { datasetId: string; criteria: Criteria; isAdmin: boolean }) {
  const { t } = useTranslation('annotation');
  const progressQuery = useQuery(datasetProgressQuery(datasetId));
  // The wording depends on the progress (empty dataset, task completed): wait for it, so one
  // message never flashes before another.
  if (progressQuery.isPending) return <p className="sch-loading" aria-busy="true">…</p>;
  const progress = progressQuery.data;
  let message: string;
  if (progress && progress.total === 0) message = isAdmin ? t('empty.datasetAdmin') : t('empty.datasetAnnotator');
  else if (hasQuery(criteria)) message = t('empty.noStatusMatching', { status: t(`statusLower.${criteria.status}`) });
  else if (criteria.status === 'pending') message = progress && progress.completed >= progress.total ? t('empty.taskCompleted') : t('empty.noPending');
  else if (criteria.status === 'submitted') message = t('empty.noSubmitted');
  else if (criteria.status === 'draft') message = t('empty.noDraft');
  else message = t('empty.noStatus', { status: t(`statusLower.${criteria.status}`) });
  return <p className="mfe-ann-empty" data-testid="empty-state">{message}</p>;
}

const MyMetrics = memo(function MyMetrics({ datasetId }: { datasetId: string }) {
  const { t } = useTranslation('annotation');
  const metrics = useMyMetrics(datasetId).data?.responses;
  if (!metrics) return null;
  return (
    <dl className="mfe-ann-metrics" data-testid="my-metrics" aria-label={t('metrics.title')}>
      {(['submitted', 'draft', 'discarded', 'pending'] as const).map((key) => (
        <div key={key} data-testid={`metric-${key}`}><dt>{key === 'pending' ? t('metrics.pending') : t(`status.${key}`)}</dt><dd>{formatNumber(metrics[key])}</dd></div>
      ))}
      <div><dt>{t('metrics.total')}</dt><dd>{formatNumber(metrics.total)}</dd></div>
    </dl>
  );
});

/**
 * The annotation screen (spec §2): one header row (dataset, progress, mode, filters in the URL,
 * guidelines) and a workspace filling the rest of the window: the record on the left, the
 * questions panel on the right (its width in `--mfe-ann-panel`). On a narrow page the header is
 * one short row (name, a thin progress bar, a menu holding the rest), so the record starts near
 * the top of a phone's screen.
 */
export function AnnotationPage({ datasetId }: { datasetId: string }) {
  const { t } = useTranslation('annotation');
  const [params, setParams] = useSearchParams();
  const parsed = useMemo(() => readUrlState(params), [params]);
  const { view } = parsed;
  // Same criteria object while only the page changes, so the filter bar and the queue keep theirs.
  const key = criteriaKey(parsed.criteria);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const criteria = useMemo(() => parsed.criteria, [key]);
  const settings = useAnnotationSettings(datasetId);
  const [empty, setEmpty] = useState(false);
  const [reloadToken, setReloadToken] = useState(0);
  const [guidelinesOpen, setGuidelinesOpen] = useState(false);
  const panelWidth = usePanelWidth();
  const [pageElement, setPageElement] = useState<HTMLDivElement | null>(null);
  const narrow = useNarrowPage(pageElement);
  const bulk = useBulkView(view.mode === 'bulk');
  const reload = useCallback(() => setReloadToken((n) => n + 1), []);

  /** Query parameters: push when some exist already, replace otherwise (spec §2). */
  // The latest URL state for callbacks that must stay the same object across renders.
  const latest = useRef({ params, criteria, view });
  latest.current = { params, criteria, view };
  const update = useCallback((nextCriteria: Criteria, nextView: ViewState, forceReplace = false) => {
    const replace = forceReplace || [...latest.current.params.keys()].length === 0;
    // flushSync: the next record renders in this task, not in a low-priority router transition.
    setParams(writeUrlState(nextCriteria, nextView), { replace, flushSync: true });
  }, [setParams]);
  const setCriteria = useCallback((next: Criteria) => update(next, { ...latest.current.view, page: 1 }), [update]);
  const setPage = useCallback((page: number, replace?: boolean) => update(latest.current.criteria, { ...latest.current.view, page }, replace), [update]);

  // Answers kept in the browser go out as soon as the server takes them again.
  const connection = useApiConnection();
  useEffect(() => startSendingKeptAnswers(connection, datasetId, reload), [connection, datasetId, reload]);

  const emit = useAnnotationEvents();
  useEffect(() => {
    if (settings.isError) emit({ type: 'load-failed', datasetId, status: settings.errorStatus, message: t(datasetLoadErrorKey(settings.error), { ns: 'translation' }) });
  }, [settings.isError, settings.errorStatus, settings.error, datasetId, emit, t]);

  if (settings.isError) {
    const home = <ScholiaLink to={{ page: 'home', path: '/' }}>{t('common.backToHome', { ns: 'translation' })}</ScholiaLink>;
    return <DatasetLoadError error={settings.error} home={home} />;
  }
  const { dataset, fields, questions, user } = settings;
  if (!dataset || !fields || !questions) return <p className="sch-loading" aria-busy="true">…</p>;
  const isAdmin = user?.role === 'owner' || user?.role === 'admin';
  const metadataVisible = settings.metadataProperties.filter((m) => m.visible_for_annotators || isAdmin).map((m) => m.name);

  const modes = isAdmin ? (['focus', 'bulk', 'review'] as const) : (['focus', 'bulk'] as const);
  // The progress is the button to its details (the reader's own counts, the team's, the agreement),
  // so the header stays one row.
  const progress = (
    <TeamProgress datasetId={datasetId} isAdmin={isAdmin} summary={<><ProgressMeter datasetId={datasetId} /><span className="mfe-ann-chevron" aria-hidden="true" /></>}>
      <MyMetrics datasetId={datasetId} />
      {isAdmin && <AgreementSummary datasetId={datasetId} />}
    </TeamProgress>
  );
  const headerControls = (
    <>
      {/* Its name, or where the header is short of room (a laptop's width) a book in its place. */}
      <button type="button" className="sch-button sch-button--ghost mfe-ann-guidelines-toggle" aria-expanded={guidelinesOpen} data-testid="guidelines-toggle" title={t('guidelines.open')} onClick={() => setGuidelinesOpen((open) => !open)}>
        <svg className="mfe-ann-guidelines-toggle__icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
          <path d="M8 4C6.3 2.9 4.2 2.7 1.8 3.3v9.4c2.4-.6 4.5-.4 6.2.8 1.7-1.2 3.8-1.4 6.2-.8V3.3C11.8 2.7 9.7 2.9 8 4zm0 0v9.5" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" />
        </svg>
        <span className="mfe-ann-guidelines-toggle__label">{t('guidelines.open')}</span>
      </button>
      <ShortcutHelp />
    </>
  );
  const toolbar = (
    <div className="mfe-ann-toolbar">
      <SegmentedControl label={t('mode.label')} className="mfe-ann-modes" options={modes.map((mode) => ({ value: mode, label: t(`mode.${mode}`) }))} value={view.mode} onChange={(mode) => update(criteria, { ...view, mode, page: 1 })} />
      {/* The review queue picks records by their overall status with its own selector. */}
      {view.mode !== 'review' && (
        <FilterBar datasetId={datasetId} criteria={criteria} onChange={setCriteria} fields={fields} questions={questions} metadataProperties={settings.metadataProperties} />
      )}
    </div>
  );

  return (
    <div ref={setPageElement} className="mfe-annotation mfe-ann-page" data-testid="annotation-page" data-mode={view.mode} data-layout={narrow ? 'narrow' : 'wide'} style={{ '--mfe-ann-panel': `${panelWidth}px` } as CSSProperties}>
      {narrow ? (
        <header className="mfe-ann-page__header mfe-ann-page__header--compact">
          <AnnotationOverview datasetId={datasetId} progress={progress} />
          <PopoverDetails
            closeOn={view.mode}
            className="mfe-ann-page__menu"
            summary={<><span aria-hidden="true">☰</span> {t('menu.open')}</>}
          >
            <div className="mfe-ann-page__menu-body" role="region" aria-label={t('menu.label')} data-testid="page-menu">
              <div className="mfe-ann-page__menu-row"><DatasetSettingsLink datasetId={datasetId} /></div>
              <div className="mfe-ann-page__menu-row">{headerControls}</div>
              {toolbar}
            </div>
          </PopoverDetails>
        </header>
      ) : (
        // One row under the host's header (Scholia's shows the breadcrumbs): name, progress and
        // settings, the view and the filters, then guidelines and shortcuts.
        <header className="mfe-ann-page__header mfe-ann-page__header--bar">
          <AnnotationOverview datasetId={datasetId} progress={progress} />
          <span className="mfe-ann-page__settings"><DatasetSettingsLink datasetId={datasetId} icon /></span>
          {toolbar}
          <div className="mfe-ann-page__tools">{headerControls}</div>
        </header>
      )}
      {/* The host page has the one main landmark; the workspace is a region of it. */}
      <div className="mfe-ann-workspace" role="region" aria-label={t('workspace.label')}>
        {empty && view.mode !== 'review' && <EmptyState datasetId={datasetId} criteria={criteria} isAdmin={isAdmin} />}
        {view.mode === 'review' && isAdmin ? (
          <ReviewView datasetId={datasetId} fields={fields} questions={questions} />
        ) : view.mode !== 'bulk' ? (
          <FocusView
            datasetId={datasetId}
            criteria={criteria}
            page={view.page}
            fields={fields}
            questions={questions}
            vectors={settings.vectors}
            metadataVisible={metadataVisible}
            onPage={setPage}
            onBackToFirst={() => { reload(); setPage(1, true); }}
            onFindSimilar={(record, vector) => setCriteria({ ...criteria, similar: { record, vector, order: 'most_similar', limit: 50 } })}
            onEmpty={setEmpty}
            reloadToken={reloadToken}
            reviewable={isAdmin}
          />
        ) : bulk.View ? (
          <bulk.View
            datasetId={datasetId}
            criteria={criteria}
            page={view.page}
            size={view.size}
            fields={fields}
            questions={questions}
            onPage={(page) => setPage(page)}
            onSize={(size) => update(criteria, { ...view, size, page: 1 })}
            onEmpty={setEmpty}
            reloadToken={reloadToken}
          />
        ) : bulk.failed ? (
          <p role="alert" data-testid="bulk-load-failed">
            {t('bulk.loadFailed')}{' '}
            <button type="button" className="sch-button sch-button--ghost" onClick={bulk.retry}>{t('common.retry', { ns: 'translation' })}</button>
          </p>
        ) : (
          <p className="sch-loading" aria-busy="true">…</p>
        )}
      </div>
      {guidelinesOpen && <GuidelinesDrawer guidelines={dataset.guidelines} onClose={() => setGuidelinesOpen(false)} />}
    </div>
  );
}
