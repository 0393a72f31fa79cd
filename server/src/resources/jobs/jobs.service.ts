import type { Kysely } from 'kysely';
import { NotFoundError } from '../../errors.js';
import { findJobById } from '../../storage/repositories/jobs.repository.js';
import type { JobRow, Tables } from '../../storage/tables.js';

/** The job with this id, or 404 `` Job with id `x` not found ``. */
export async function getJob(db: Kysely<Tables>, id: string): Promise<JobRow> {
  const job = await findJobById(db, id);
  if (!job) throw new NotFoundError(`Job with id \`${id}\` not found`);
  return job;
}
