import { isJobRunning } from './export-jobs.js';
import { apiRequest } from './http-client.js';
import { getJob } from './records.js';
import type { DatasetProgress, Job } from './types.js';

/** Spec §4, §9: after an import, poll 10 times, 3000 ms apart, until at least 10 records exist. */
export const IMPORT_POLLING = { attempts: 10, intervalMs: 3000, goalRecords: 10 } as const;

export interface ImportWaitResult {
  /** `ready`: enough records (or the job finished); `failed`: the job ended badly; `timeout`: still importing. */
  outcome: 'ready' | 'failed' | 'timeout';
  total: number;
  jobStatus: Job['status'];
}

export interface ImportWaitOptions {
  attempts?: number;
  intervalMs?: number;
  goalRecords?: number;
  sleep?: (ms: number) => Promise<void>;
  getJob?: (id: string) => Promise<Job>;
  getProgress?: (datasetId: string) => Promise<Pick<DatasetProgress, 'total'>>;
  /** Called after each attempt, for a progress line. */
  onAttempt?: (attempt: number, total: number, jobStatus: Job['status']) => void;
}

/** Fresh progress (no cache: the total grows while we poll). */
export async function fetchDatasetProgress(datasetId: string): Promise<DatasetProgress> {
  const { data } = await apiRequest<DatasetProgress>('GET', `v1/datasets/${datasetId}/progress`, { globalErrorHandler: false });
  return data;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits for an import job to bring records in. A failed job lookup counts as failed (spec §8);
 * a failed progress read counts as "no records yet".
 */
export async function waitForImportedRecords(datasetId: string, jobId: string, options: ImportWaitOptions = {}): Promise<ImportWaitResult> {
  const {
    attempts = IMPORT_POLLING.attempts, intervalMs = IMPORT_POLLING.intervalMs, goalRecords = IMPORT_POLLING.goalRecords,
    sleep = defaultSleep, getJob: readJob = getJob, getProgress = fetchDatasetProgress, onAttempt,
  } = options;
  let total = 0;
  let jobStatus: Job['status'] = 'queued';
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    jobStatus = (await readJob(jobId)).status;
    total = await getProgress(datasetId).then((p) => p.total, () => total);
    onAttempt?.(attempt, total, jobStatus);
    if (total >= goalRecords || jobStatus === 'finished') return { outcome: 'ready', total, jobStatus };
    if (!isJobRunning(jobStatus)) return { outcome: 'failed', total, jobStatus };
    if (attempt < attempts) await sleep(intervalMs);
  }
  return { outcome: 'timeout', total, jobStatus };
}
