export { enqueueJob, claimNextJob, SEALED_SECRETS_KEY } from './job-queue.js';
export { sealSecrets, openSecrets } from './job-secrets.js';
export { startJobWorker, failOrphanedJobs, INTERRUPTED_JOB_ERROR, type JobWorker, type JobHandler, type JobContext } from './job-worker.js';
export { createJobHandlers } from './job-handlers.js';
