import type { Dataset } from '@scholia/shared/api';

export const DATASET_SORTS = ['name', 'updated', 'created'] as const;
export type DatasetSort = (typeof DATASET_SORTS)[number];

export interface DatasetFilter {
  search: string;
  sort: DatasetSort;
  /** Empty string = every workspace. */
  workspaceId: string;
}

/** Search (name, case-insensitive), workspace filter and sort: name A→Z, dates newest first. */
export function filterDatasets(datasets: readonly Dataset[], { search, sort, workspaceId }: DatasetFilter): Dataset[] {
  const needle = search.trim().toLocaleLowerCase();
  const kept = datasets.filter((dataset) =>
    (!workspaceId || dataset.workspace_id === workspaceId) && (!needle || dataset.name.toLocaleLowerCase().includes(needle)));
  const byName = (a: Dataset, b: Dataset) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
  const compare: Record<DatasetSort, (a: Dataset, b: Dataset) => number> = {
    name: byName,
    updated: (a, b) => b.updated_at.localeCompare(a.updated_at) || byName(a, b),
    created: (a, b) => b.inserted_at.localeCompare(a.inserted_at) || byName(a, b),
  };
  return [...kept].sort(compare[sort]);
}
