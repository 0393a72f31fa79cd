import { getEnvironment } from './environment.js';
import type { EnvironmentSettings } from './types.js';

/**
 * The Hugging Face dataset viewer ("datasets-server"), called straight from the browser without
 * credentials (product spec §7, hub-contract §1): info, first rows, statistics of a public repo.
 */

export const DEFAULT_DATASETS_SERVER_URL = 'https://datasets-server.huggingface.co';
export const DEFAULT_HUB_URL = 'https://huggingface.co';

/** A feature type as the viewer writes it (`Value`, `ClassLabel`, `Image`, `List`, struct, legacy list). */
export type HubFeature = HubFeatureObject | HubFeature[];
export interface HubFeatureObject {
  _type?: string;
  dtype?: string;
  names?: string[];
  feature?: HubFeature;
  [key: string]: unknown;
}

export interface HubSplit {
  name: string;
  numExamples?: number;
}

/** One subset ("config") of a repository: its splits and its columns. */
export interface HubSubset {
  name: string;
  splits: HubSplit[];
  features: Record<string, HubFeature>;
}

export interface HubDatasetInfo {
  repoId: string;
  subsets: HubSubset[];
}

export interface HubColumnStatistics {
  column_name: string;
  column_type: string;
  column_statistics: { min?: number | null; max?: number | null; frequencies?: Record<string, number>; [key: string]: unknown };
}

/** Thrown for every failed lookup: unknown, private or gated repository, viewer down. */
export class HubDatasetNotFoundError extends Error {
  override readonly name = 'HubDatasetNotFoundError';
  /** Spec §8: the repository code of the hub dataset lookup. */
  readonly repositoryCode = 'ERROR_FETCHING_DATASET';
  constructor(readonly repoId: string, options?: { cause?: unknown }) {
    super(`Dataset not found or available on Hugging Face: ${repoId}`, options);
  }
}

/** `/api/v1/settings` as this module reads it: our own `scholia` block names the hub hosts. */
type SettingsWithHubEndpoints = EnvironmentSettings & { scholia?: { hub_url?: string; datasets_server_url?: string } };

export interface HubEndpoints {
  hubUrl: string;
  datasetsServerUrl: string;
}

let configured: Partial<HubEndpoints> = {};

/** Lets a host page (or a test) fix the hosts instead of reading them from the server's settings. */
export function configureHubEndpoints(endpoints: Partial<HubEndpoints>): void {
  configured = { ...endpoints };
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Configured hosts win, then the server's settings, then huggingface.co. */
export async function getHubEndpoints(): Promise<HubEndpoints> {
  let fromServer: SettingsWithHubEndpoints['scholia'];
  if (!configured.hubUrl || !configured.datasetsServerUrl) {
    try {
      fromServer = ((await getEnvironment()) as SettingsWithHubEndpoints).scholia;
    } catch {
      fromServer = undefined; // settings unreachable: production defaults
    }
  }
  return {
    hubUrl: trimSlash(configured.hubUrl ?? fromServer?.hub_url ?? DEFAULT_HUB_URL),
    datasetsServerUrl: trimSlash(configured.datasetsServerUrl ?? fromServer?.datasets_server_url ?? DEFAULT_DATASETS_SERVER_URL),
  };
}

async function viewerGet<T>(endpoint: string, params: Record<string, string>, signal?: AbortSignal): Promise<T> {
  const { datasetsServerUrl } = await getHubEndpoints();
  const response = await fetch(`${datasetsServerUrl}/${endpoint}?${new URLSearchParams(params).toString()}`, {
    headers: { Accept: 'application/json' },
    signal,
  });
  if (!response.ok) throw new Error(`datasets-server /${endpoint} answered ${response.status}`);
  return (await response.json()) as T;
}

interface RawDatasetInfo {
  config_name?: string;
  features?: Record<string, HubFeature>;
  splits?: Record<string, { name?: string; num_examples?: number }>;
}

/** `/info?dataset=` → subsets (each key of `dataset_info` is one), splits in the viewer's order. */
export function parseDatasetInfo(repoId: string, body: { dataset_info?: Record<string, RawDatasetInfo> }): HubDatasetInfo {
  const subsets = Object.entries(body.dataset_info ?? {}).map(([name, info]) => ({
    name,
    splits: Object.entries(info.splits ?? {}).map(([split, details]) => ({ name: details.name ?? split, numExamples: details.num_examples })),
    features: info.features ?? {},
  }));
  return { repoId, subsets };
}

/** Looks a repository up; any failure is a HubDatasetNotFoundError (spec §5 message). */
export async function fetchHubDatasetInfo(repoId: string, signal?: AbortSignal): Promise<HubDatasetInfo> {
  try {
    const info = parseDatasetInfo(repoId, await viewerGet('info', { dataset: repoId }, signal));
    if (info.subsets.length === 0) throw new Error('no subsets');
    return info;
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new HubDatasetNotFoundError(repoId, { cause });
  }
}

/** First rows of a split (≤100), as cell values; errors give an empty list (the preview is optional). */
export async function fetchHubFirstRows(repoId: string, subset: string, split: string, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
  try {
    const body = await viewerGet<{ rows?: { row: Record<string, unknown> }[] }>('first-rows', { dataset: repoId, config: subset, split }, signal);
    return (body.rows ?? []).map((r) => r.row);
  } catch {
    return [];
  }
}

/** Column statistics of a split; empty when the viewer has none (not every repo has a parquet export). */
export async function fetchHubStatistics(repoId: string, subset: string, split: string, signal?: AbortSignal): Promise<HubColumnStatistics[]> {
  try {
    const body = await viewerGet<{ statistics?: HubColumnStatistics[] }>('statistics', { dataset: repoId, config: subset, split }, signal);
    return body.statistics ?? [];
  } catch {
    return [];
  }
}

/** React Query options; keys start with 'hub' so the API cache invalidation never refetches them. */
export const hubDatasetInfoQuery = (repoId: string) => ({
  queryKey: ['hub', 'info', repoId],
  queryFn: ({ signal }: { signal?: AbortSignal }) => fetchHubDatasetInfo(repoId, signal),
  staleTime: 600_000,
});

export const hubFirstRowsQuery = (repoId: string, subset: string, split: string) => ({
  queryKey: ['hub', 'first-rows', repoId, subset, split],
  queryFn: ({ signal }: { signal?: AbortSignal }) => fetchHubFirstRows(repoId, subset, split, signal),
  staleTime: 600_000,
});

export const hubStatisticsQuery = (repoId: string, subset: string, split: string) => ({
  queryKey: ['hub', 'statistics', repoId, subset, split],
  queryFn: ({ signal }: { signal?: AbortSignal }) => fetchHubStatistics(repoId, subset, split, signal),
  staleTime: 600_000,
});
