import { apiRequest } from './http-client.js';
import { exportDataset } from './datasets.js';
import type { Job } from './types.js';

/** Job statuses that mean "still running" (spec §4); every other status is final. */
export const RUNNING_JOB_STATUSES: readonly Job['status'][] = ['queued', 'started', 'scheduled', 'deferred'];

export function isJobRunning(status: Job['status']): boolean {
  return RUNNING_JOB_STATUSES.includes(status);
}

/**
 * GET v1/jobs/{id}, without toasts: the caller polls it. A failed lookup counts as a failed job
 * (spec §4, §8), so a job that vanished never keeps a poller alive.
 */
export async function fetchJobStatus(jobId: string): Promise<Job> {
  try {
    const { data } = await apiRequest<Job>('GET', `v1/jobs/${encodeURIComponent(jobId)}`, { globalErrorHandler: false });
    return data;
  } catch {
    return { id: jobId, status: 'failed' };
  }
}

/** What local storage keeps about an export (spec §4: the job id and the dataset name). */
export interface ExportJobEntry {
  jobId: string;
  datasetId: string;
  datasetName: string;
  /** Hub repository written to, `owner/name`. */
  repoId: string;
  startedAt: string;
}

const EXPORT_JOBS_KEY = 'scholia.exportJobs';

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/** Every export still followed, by dataset id; a corrupt entry reads as none. */
export function readExportJobs(): Record<string, ExportJobEntry> {
  try {
    const parsed = JSON.parse(storage()?.getItem(EXPORT_JOBS_KEY) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, ExportJobEntry>) : {};
  } catch {
    return {};
  }
}

export function readExportJob(datasetId: string): ExportJobEntry | undefined {
  return readExportJobs()[datasetId];
}

export function storeExportJob(entry: ExportJobEntry): void {
  storage()?.setItem(EXPORT_JOBS_KEY, JSON.stringify({ ...readExportJobs(), [entry.datasetId]: entry }));
}

export function forgetExportJob(datasetId: string): void {
  const jobs = readExportJobs();
  delete jobs[datasetId];
  storage()?.setItem(EXPORT_JOBS_KEY, JSON.stringify(jobs));
}

/** The hub export form of spec §2. */
export interface HubExportRequest {
  /** Organization or username on the hub. */
  owner: string;
  /** Repository name under `owner`. */
  name: string;
  token: string;
  private: boolean;
}

/**
 * Starts the export job and remembers it in local storage, so its status can be followed
 * across page reloads. Errors go through the global handler (toast) and are rethrown.
 */
export async function startHubExport(dataset: { id: string; name: string }, request: HubExportRequest): Promise<ExportJobEntry> {
  const repoId = `${request.owner.trim()}/${request.name.trim()}`;
  const job = await exportDataset(dataset.id, {
    name: repoId,
    subset: 'default',
    split: 'train',
    private: request.private,
    token: request.token.trim(),
  });
  const entry: ExportJobEntry = { jobId: job.id, datasetId: dataset.id, datasetName: dataset.name, repoId, startedAt: new Date().toISOString() };
  storeExportJob(entry);
  return entry;
}
