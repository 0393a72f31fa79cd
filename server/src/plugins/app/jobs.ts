import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { createJobHandlers } from '../../jobs/job-handlers.js';
import { failOrphanedJobs, startJobWorker, type JobWorker } from '../../jobs/job-worker.js';

/**
 * Runs the background-job worker inside the server process (default), started when the app is
 * ready and stopped on close (a running job goes back to the queue). With
 * `SCHOLIA_JOB_WORKERS=external` the server only queues jobs and `src/worker.ts` runs them; orphaned
 * `started` jobs are still failed at boot so none stays `started` after a crash.
 */
export const jobsPlugin = fp(
  async (app: FastifyInstance) => {
    let worker: JobWorker | undefined;
    app.addHook('onReady', async () => {
      await failOrphanedJobs(app.database.db);
      if (app.config.jobWorkers === 'external') return;
      worker = startJobWorker({
        database: app.database,
        config: app.config,
        handlers: createJobHandlers(),
        log: app.log.child({ component: 'jobs' }),
      });
    });
    // preClose: before every onClose hook, so the database is still open while the job is handed back.
    app.addHook('preClose', async () => {
      await worker?.stop();
    });
  },
  { name: 'jobs', dependencies: ['database'] },
);
