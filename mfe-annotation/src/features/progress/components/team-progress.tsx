import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentUserQuery } from '@scholia/shared/api';
import { formatNumber } from '@scholia/shared/i18n';
import { useMyMetrics } from '../../annotate/api/use-annotation-settings.js';
import { PopoverDetails } from '../../annotate/layout/popover-details.js';
import { useDatasetProgress } from '../api/get-progress.js';
import { useUsersProgress } from '../api/get-users-progress.js';
import { annotatorCounts, type AnnotatorCounts } from '../team-counts.js';

const STATUSES = ['submitted', 'draft', 'discarded'] as const;

/**
 * Team progress (spec: users see their own and their team's progress), in a panel that opens on
 * demand: the dataset's records completed and pending, and each annotator's submitted, draft and
 * discarded answers for owners and admins; an annotator sees their own line. Re-read over the bus
 * after each response (throttled), and only while open: counting everyone reads the whole dataset.
 * `summary` draws the button (the dataset's progress), named "Team progress" or "My progress" for
 * screen readers; `children` open at the top of the panel (the reader's own counts, the agreement).
 */
export function TeamProgress({ datasetId, isAdmin, summary, children }: { datasetId: string; isAdmin: boolean; summary?: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation('annotation');
  const [open, setOpen] = useState(false);
  const totals = useDatasetProgress(datasetId).data;
  const team = useUsersProgress(datasetId, isAdmin && open).data;
  const mine = useMyMetrics(datasetId).data?.responses;
  const me = useQuery(currentUserQuery()).data?.username;
  const rows: AnnotatorCounts[] = isAdmin
    ? (team ? annotatorCounts(team) : [])
    : mine && me ? [{ username: me, submitted: mine.submitted, draft: mine.draft, discarded: mine.discarded }] : [];
  const name = isAdmin ? t('team.title') : t('team.own');
  return (
    <PopoverDetails className="mfe-ann-team" summary={summary ? <><span className="mfe-ann-visually-hidden">{name}</span>{summary}</> : name} onToggle={setOpen}>
      {children}
      {open && (
        <div className="mfe-ann-team__panel" data-testid="team-progress">
          {totals && (
            <dl className="mfe-ann-team__totals" data-testid="team-totals">
              <div><dt>{t('team.records')}</dt><dd>{formatNumber(totals.total)}</dd></div>
              <div><dt>{t('team.completed')}</dt><dd>{formatNumber(totals.completed)}</dd></div>
              <div><dt>{t('team.pending')}</dt><dd>{formatNumber(totals.pending)}</dd></div>
            </dl>
          )}
          {rows.length > 0 ? (
            <table className="mfe-ann-team__table" data-testid="team-table">
              <thead>
                <tr><th scope="col">{t('team.annotator')}</th>{STATUSES.map((s) => <th key={s} scope="col">{t(`status.${s}`)}</th>)}</tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.username}>
                    <th scope="row">{row.username}</th>
                    {STATUSES.map((s) => <td key={s}>{formatNumber(row[s])}</td>)}
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            isAdmin && team && <p className="sch-muted">{t('team.none')}</p>
          )}
        </div>
      )}
    </PopoverDetails>
  );
}
