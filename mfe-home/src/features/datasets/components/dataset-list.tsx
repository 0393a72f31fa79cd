import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatDate } from '@scholia/shared/i18n';
import { SearchInput, Select } from '@scholia/shared/ui';
import { useMyDatasets } from '../api/get-datasets.js';
import { useMyWorkspaces } from '../api/get-workspaces.js';
import { useCurrentUser } from '../api/get-current-user.js';
import { DATASET_SORTS, filterDatasets, type DatasetSort } from '../filter-datasets.js';
import { useHomeTranslation } from '../../../i18n/home-translation.js';

const SORT_LABELS: Record<DatasetSort, string> = { name: 'home.sortName', updated: 'home.sortUpdated', created: 'home.sortCreated' };

/** "Your datasets": count, search, sort, workspace filter; each opens annotation mode. */
export function DatasetList() {
  const { t, i18n } = useHomeTranslation();
  const datasets = useMyDatasets();
  const workspaces = useMyWorkspaces();
  const user = useCurrentUser();
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<DatasetSort>('updated');
  const [workspaceId, setWorkspaceId] = useState('');

  const all = datasets.data?.items ?? [];
  const shown = useMemo(() => filterDatasets(all, { search, sort, workspaceId }), [all, search, sort, workspaceId]);
  const workspaceName = new Map((workspaces.data?.items ?? []).map((w) => [w.id, w.name]));
  const isAdmin = user.data?.role === 'admin' || user.data?.role === 'owner';

  return (
    <section className="mfe-home__datasets" aria-labelledby="home-datasets-title">
      <div className="mfe-home__heading">
        <h1 id="home-datasets-title">{t('home.title')}</h1>
        <p className="sch-muted" data-testid="datasets-count" aria-live="polite">
          {/* Not "0 datasets found" while the list is still on its way. */}
          {!datasets.isPending && t('home.datasetsFound', { count: shown.length })}
        </p>
      </div>
      <div className="mfe-home__toolbar">
        <SearchInput className="mfe-home__search" label={t('home.searchPlaceholder')} placeholder={t('home.searchPlaceholder')}
          value={search} onChange={(event) => setSearch(event.target.value)} onClear={() => setSearch('')} />
        <Select label={t('home.workspace')} value={workspaceId} onChange={(event) => setWorkspaceId(event.target.value)}>
          <option value="">{t('home.allWorkspaces')}</option>
          {(workspaces.data?.items ?? []).map((w) => <option key={w.id} value={w.id}>{w.name}</option>)}
        </Select>
        <Select label={t('home.sortBy')} value={sort} onChange={(event) => setSort(event.target.value as DatasetSort)}>
          {DATASET_SORTS.map((option) => <option key={option} value={option}>{t(SORT_LABELS[option])}</option>)}
        </Select>
      </div>
      {datasets.isPending && <p className="sch-loading" aria-busy="true">{t('common.loading')}</p>}
      {!datasets.isPending && all.length === 0 && (
        <div className="sch-card mfe-home__empty">
          <h2>{t('home.emptyTitle')}</h2>
          <p>{isAdmin ? t('home.emptyAdmin') : t('home.emptyAnnotator')}</p>
        </div>
      )}
      {all.length > 0 && shown.length === 0 && <p>{t('home.noMatches')}</p>}
      <ul className="mfe-home__list">
        {shown.map((dataset) => (
          <li key={dataset.id} className="sch-card mfe-home__item" data-testid="dataset-item">
            <Link to={`/dataset/${dataset.id}/annotation-mode`} className="mfe-home__name">{dataset.name}</Link>
            <span className="sch-muted">{workspaceName.get(dataset.workspace_id) ?? ''}</span>
            <span className="sch-muted">{t('home.updatedAt', { date: formatDate(dataset.updated_at, i18n.language) })}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
