import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { JobIdParams } from '@scholia/shared/contract';
import { authorizeJobRead } from './jobs.policy.js';
import { presentJob } from './jobs.presenter.js';
import { getJob } from './jobs.service.js';

/** `GET /jobs/{job_id}` (contract §2.4): the frontend polls it after an import or export. Loads, then authorizes. */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.database;

  app.get('/jobs/:job_id', { schema: { params: JobIdParams } }, async (request) => {
    const job = await getJob(db, request.params.job_id);
    authorizeJobRead(request.user);
    return presentJob(job);
  });
};
