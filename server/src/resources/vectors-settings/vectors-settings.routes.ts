import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  DatasetIdParams,
  VectorSettingsCreateBody,
  VectorSettingsIdParams,
  VectorSettingsUpdateBody,
} from '@scholia/shared/contract';
import { listVectorSettings } from '../../storage/repositories/dataset-settings.repository.js';
import { getDatasetOrThrow } from '../datasets/dataset-lookup.js';
import { authorizeDatasetRead, authorizeDatasetWrite } from '../datasets/datasets.policy.js';
import { presentVectorSettings } from './vector-settings.presenter.js';
import {
  createVectorSettings,
  deleteVectorSettings,
  getVectorSettingsOrThrow,
  updateVectorSettings,
} from './vectors-settings.service.js';

/** Vector settings (contract §2.8). */
export const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const database = app.database;
  const { db } = database;

  app.get('/datasets/:dataset_id/vectors-settings', { schema: { params: DatasetIdParams } }, async (request) => {
    const dataset = await getDatasetOrThrow(db, request.params.dataset_id);
    await authorizeDatasetRead(db, request.user, dataset);
    return { items: (await listVectorSettings(db, dataset.id)).map(presentVectorSettings) };
  });

  app.post(
    '/datasets/:dataset_id/vectors-settings',
    { schema: { params: DatasetIdParams, body: VectorSettingsCreateBody } },
    async (request, reply) => {
      const dataset = await getDatasetOrThrow(db, request.params.dataset_id);
      await authorizeDatasetWrite(db, request.user, dataset);
      const settings = await createVectorSettings(database, dataset, request.body);
      return reply.code(201).send(presentVectorSettings(settings));
    },
  );

  app.patch(
    '/vectors-settings/:vector_settings_id',
    { schema: { params: VectorSettingsIdParams, body: VectorSettingsUpdateBody } },
    async (request) => {
      const settings = await getVectorSettingsOrThrow(database, request.params.vector_settings_id);
      await authorizeDatasetWrite(db, request.user, await getDatasetOrThrow(db, settings.dataset_id));
      return presentVectorSettings(await updateVectorSettings(database, settings, request.body));
    },
  );

  app.delete('/vectors-settings/:vector_settings_id', { schema: { params: VectorSettingsIdParams } }, async (request) => {
    const settings = await getVectorSettingsOrThrow(database, request.params.vector_settings_id);
    await authorizeDatasetWrite(db, request.user, await getDatasetOrThrow(db, settings.dataset_id));
    return presentVectorSettings(await deleteVectorSettings(database, settings));
  });
};
