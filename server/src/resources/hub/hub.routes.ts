import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DatasetIdParams, HubExportBody, HubImportBody } from '@scholia/shared/contract';
import { presentJob } from '../jobs/jobs.presenter.js';
import { startHubExport, startHubImport } from './hub.service.js';

/**
 * `POST /datasets/{id}/import` and `/export` (contract §2.4): both queue a background job and
 * answer 202 with it; the frontend polls `GET /jobs/{id}`. Admin members and owners only.
 */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.post('/datasets/:dataset_id/import', { schema: { params: DatasetIdParams, body: HubImportBody } }, async (request, reply) => {
    const job = await startHubImport(app.database.db, request.user, request.params.dataset_id, request.body);
    return reply.code(202).send(presentJob(job));
  });

  app.post('/datasets/:dataset_id/export', { schema: { params: DatasetIdParams, body: HubExportBody } }, async (request, reply) => {
    const job = await startHubExport(app.database.db, app.config, request.user, request.params.dataset_id, request.body);
    return reply.code(202).send(presentJob(job));
  });
};
