import type { Job } from '@scholia/shared/contract';
import type { JobRow } from '../../storage/tables.js';

/** Contract §2.4: a job's id and status on the wire, and why it failed when it did. */
export function presentJob(job: JobRow): Job {
  return { id: job.id, status: job.status, ...(job.status === 'failed' && job.error ? { error: job.error } : {}) };
}
