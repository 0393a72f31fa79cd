import { Type, type Static } from '@sinclair/typebox';

export const JOB_STATUSES = ['queued', 'started', 'deferred', 'scheduled', 'finished', 'failed', 'stopped', 'canceled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * `GET /jobs/{job_id}` (contract §2.4). Job ids are plain strings, not necessarily UUIDs. A failed
 * job also says why (`error`), a field of Scholia's that clients of the contract may ignore.
 */
export const Job = Type.Object({
  id: Type.String(),
  status: Type.Unsafe<JobStatus>({ type: 'string', enum: [...JOB_STATUSES] }),
  error: Type.Optional(Type.String()),
});
export type Job = Static<typeof Job>;

export const JobIdParams = Type.Object({ job_id: Type.String() });
export type JobIdParams = Static<typeof JobIdParams>;
