import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  currentUserQuery, getHubEndpoints, hubDatasetInfoQuery, hubFirstRowsQuery, hubStatisticsQuery, isLoggedIn,
  type HubColumnStatistics, type HubDatasetInfo,
} from '@scholia/shared/api';
import { formatNumber } from '@scholia/shared/i18n';
import { classifyColumns, type HubColumn } from '../../configuration/domain/hub-columns.js';
import { CellView } from '../../configuration/components/cell-view.js';
import { isAdminOrOwner } from '../../access/roles.js';
import { lookupFailureMessage } from '../lookup-failure.js';

/** The subset and split the user picked (URL query), or the first ones (spec §2: first preselected). */
export function useSubsetAndSplit(info: HubDatasetInfo | undefined) {
  const [params, setParams] = useSearchParams();
  const subset = info?.subsets.find((s) => s.name === params.get('subset')) ?? info?.subsets[0];
  const split = subset?.splits.find((s) => s.name === params.get('split')) ?? subset?.splits[0];
  const choose = (next: { subset?: string; split?: string }) => {
    const nextSubset = next.subset ?? subset?.name ?? '';
    const nextSplit = next.subset ? (info?.subsets.find((s) => s.name === next.subset)?.splits[0]?.name ?? '') : (next.split ?? split?.name ?? '');
    setParams({ subset: nextSubset, split: nextSplit }, { replace: true });
  };
  return { subset, split, choose };
}

export function useHubUrl(): string {
  const { data } = useQuery({ queryKey: ['hub', 'endpoints'], queryFn: getHubEndpoints, staleTime: Infinity });
  return data?.hubUrl ?? 'https://huggingface.co';
}

/** `/:id`: look the repository up on the dataset viewer; choose one subset and split. */
export function RepositoryLookup({ repoId }: { repoId?: string }) {
  const { t } = useTranslation('hubImport');
  const navigate = useNavigate();
  const hubUrl = useHubUrl();
  const info = useQuery({ ...hubDatasetInfoQuery(repoId ?? ''), enabled: Boolean(repoId), retry: false });
  const { subset, split, choose } = useSubsetAndSplit(info.data);
  const { data: user } = useQuery({ ...currentUserQuery(), enabled: isLoggedIn() });
  const rows = useQuery({ ...hubFirstRowsQuery(repoId ?? '', subset?.name ?? '', split?.name ?? ''), enabled: Boolean(repoId && subset && split) });
  const stats = useQuery({ ...hubStatisticsQuery(repoId ?? '', subset?.name ?? '', split?.name ?? ''), enabled: Boolean(repoId && subset && split) });
  const columns = useMemo(() => classifyColumns(subset?.features ?? {}), [subset]);

  if (!repoId) return <p>{t('noRepository')}</p>;
  const configure = () => {
    const query = new URLSearchParams({ subset: subset?.name ?? '', split: split?.name ?? '' });
    void navigate(`/new/${encodeURIComponent(repoId)}?${query.toString()}`);
  };

  return (
    <section className="sch-card mfe-hub-import">
      <header className="mfe-hub-import__head">
        <h1>{t('title')}</h1>
        <p>
          {t('repository')}: <strong data-testid="hub-repo-id">{repoId}</strong>{' '}
          <a href={`${hubUrl}/datasets/${repoId}`} target="_blank" rel="noreferrer">{t('openOnHub')}</a>
        </p>
      </header>
      {info.isPending && <p aria-busy="true">{t('lookingUp')}</p>}
      {info.isError && <p role="alert" className="mfe-hub-import__error">{lookupFailureMessage(info.error, t)}</p>}
      {info.data && subset && (
        <>
          <div className="mfe-hub-import__choices">
            <label>
              {t('subset')}
              <select className="sch-input" value={subset.name} onChange={(e) => choose({ subset: e.target.value })}>
                {info.data.subsets.map((s) => <option key={s.name} value={s.name}>{s.name}</option>)}
              </select>
            </label>
            <label>
              {t('split')}
              <select className="sch-input" value={split?.name ?? ''} onChange={(e) => choose({ split: e.target.value })}>
                {subset.splits.map((s) => (
                  <option key={s.name} value={s.name}>
                    {s.name}{s.numExamples !== undefined ? ` (${t('rowCount', { rows: formatNumber(s.numExamples) })})` : ''}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <p className="sch-muted">{info.data.subsets.length > 1 ? `${t('subsetHint')} ` : ''}{t('importLimit')}</p>
          <ColumnTable columns={columns} statistics={stats.data ?? []} firstRow={rows.data?.[0]} />
          {rows.isSuccess && rows.data.length === 0 && <p className="sch-muted">{t('noRows')}</p>}
          {user && !isAdminOrOwner(user.role) && <p role="note">{t('onlyAdmins')}</p>}
          <button type="button" className="sch-button" onClick={configure} disabled={!split || (user && !isAdminOrOwner(user.role))}>
            {t('configure')}
          </button>
        </>
      )}
    </section>
  );
}

function statisticsSummary(stat: HubColumnStatistics | undefined, t: (key: string, options?: Record<string, unknown>) => string): string {
  if (!stat) return '';
  const { min, max, frequencies } = stat.column_statistics;
  if ((stat.column_type === 'int' || stat.column_type === 'float') && min !== null && min !== undefined && max !== null && max !== undefined) {
    return t('range', { min: formatNumber(min), max: formatNumber(max) });
  }
  if (frequencies) {
    return Object.entries(frequencies).slice(0, 5).map(([label, count]) => t('format.labelled', { label, value: formatNumber(count) })).join(t('format.listSeparator'));
  }
  return '';
}

function ColumnTable({ columns, statistics, firstRow }: { columns: HubColumn[]; statistics: HubColumnStatistics[]; firstRow?: Record<string, unknown> }) {
  const { t } = useTranslation('hubImport');
  return (
    <table className="mfe-hub-import__table" aria-label={t('columns')}>
      <thead>
        <tr><th>{t('column')}</th><th>{t('type')}</th><th>{t('summary')}</th><th>{t('firstRow')}</th></tr>
      </thead>
      <tbody>
        {columns.map((column) => (
          <tr key={column.name}>
            <th scope="row">{column.name}</th>
            <td>{t(`kinds.${column.kind}`)}{column.labels ? ` (${column.labels.join(', ')})` : ''}</td>
            <td className="sch-muted">{statisticsSummary(statistics.find((s) => s.column_name === column.name), t)}</td>
            <td>{firstRow ? <CellView column={column} cell={firstRow[column.name]} compact /> : null}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
