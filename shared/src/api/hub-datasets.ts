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

/** Why a repository could not be looked up. */
export type HubLookupFailure = 'not-found' | 'unreachable' | 'viewer-failed';

/**
 * Thrown for every failed lookup, with the reason: the repository is unknown, private or gated
 * (`not-found`), the dataset viewer could not be reached (`unreachable`) or it failed (`status`).
 */
export class HubLookupError extends Error {
  override readonly name = 'HubLookupError';
  /** Spec §8: the repository code of the hub dataset lookup. */
  readonly repositoryCode = 'ERROR_FETCHING_DATASET';
  constructor(readonly repoId: string, readonly reason: HubLookupFailure, readonly status?: number, options?: { cause?: unknown }) {
    super(`Hub lookup of ${repoId} failed: ${reason}${status ? ` (HTTP ${status})` : ''}`, options);
  }
}

/** A dataset viewer answer other than 2xx; status 0 when it could not be reached at all. */
class ViewerHttpError extends Error {
  constructor(readonly status: number, endpoint: string, options?: { cause?: unknown }) {
    super(status ? `datasets-server /${endpoint} answered ${status}` : `datasets-server /${endpoint} unreachable`, options);
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
  let response: Response;
  try {
    response = await fetch(`${datasetsServerUrl}/${endpoint}?${new URLSearchParams(params).toString()}`, {
      headers: { Accept: 'application/json' },
      signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ViewerHttpError(0, endpoint, { cause });
  }
  if (!response.ok) throw new ViewerHttpError(response.status, endpoint);
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

/**
 * Looks a repository up; any failure is a HubLookupError saying why. The viewer answers 401/404
 * for a repository that does not exist or that it may not read (private, gated); a repository it
 * describes without subsets has nothing to import either.
 */
export async function fetchHubDatasetInfo(repoId: string, signal?: AbortSignal): Promise<HubDatasetInfo> {
  let info: HubDatasetInfo;
  try {
    info = parseDatasetInfo(repoId, await viewerGet('info', { dataset: repoId }, signal));
  } catch (cause) {
    if (signal?.aborted) throw cause;
    const status = cause instanceof ViewerHttpError ? cause.status : undefined;
    if (status === 0) throw new HubLookupError(repoId, 'unreachable', undefined, { cause });
    if (status === 401 || status === 403 || status === 404) throw new HubLookupError(repoId, 'not-found', status, { cause });
    throw new HubLookupError(repoId, 'viewer-failed', status, { cause });
  }
  if (info.subsets.length === 0) throw new HubLookupError(repoId, 'not-found');
  return info;
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
