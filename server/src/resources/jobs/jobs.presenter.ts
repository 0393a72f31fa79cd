import type { Job } from '@scholia/shared/contract';
import type { JobRow } from '../../storage/tables.js';

/** Contract §2.4: a job is only its id and status on the wire. */
export function presentJob(job: JobRow): Job {
  return { id: job.id, status: job.status };
}
