import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DatasetCreateBody, DatasetIdParams, DatasetUpdateBody, MeDatasetsQuery } from '@scholia/shared/contract';
import { getDatasetOrThrow } from './dataset-lookup.js';
import { presentDataset } from './dataset.presenter.js';
import { authorizeDatasetCreate, authorizeDatasetList, authorizeDatasetRead, authorizeDatasetWrite } from './datasets.policy.js';
import {
  createDataset,
  deleteDataset,
  getDatasetProgress,
  getDatasetUsersProgress,
  getUserDatasetMetrics,
  listUserDatasets,
  publishDataset,
  updateDataset,
} from './datasets.service.js';

/** Datasets (contract §2.4): list, CRUD, publish, progress and metrics. */
export const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const database = app.database;
  const { db } = database;

  app.get('/me/datasets', { schema: { querystring: MeDatasetsQuery } }, async (request) => {
    await authorizeDatasetList(db, request.user, request.query.workspace_id);
    const datasets = await listUserDatasets(database, request.user, request.query);
    return { items: datasets.map(presentDataset) };
  });

  app.get('/datasets/:dataset_id', { schema: { params: DatasetIdParams } }, async (request) => {
    const dataset = await getDatasetOrThrow(db, request.params.dataset_id);
    await authorizeDatasetRead(db, request.user, dataset);
    return presentDataset(dataset);
  });

  app.post('/datasets', { schema: { body: DatasetCreateBody } }, async (request, reply) => {
    await authorizeDatasetCreate(db, request.user, request.body.workspace_id);
    const dataset = await createDataset(database, request.body);
    return reply.code(201).send(presentDataset(dataset));
  });

  app.patch('/datasets/:dataset_id', { schema: { params: DatasetIdParams, body: DatasetUpdateBody } }, async (request) => {
    const dataset = await getDatasetOrThrow(db, request.params.dataset_id);
    await authorizeDatasetWrite(db, request.user, dataset);
    return presentDataset(await updateDataset(database, dataset, request.body));
  });

  app.delete('/datasets/:dataset_id', { schema: { params: DatasetIdParams } }, async (request) => {
    const dataset = await getDatasetOrThrow(db, request.params.dataset_id);
    await authorizeDatasetWrite(db, request.user, dataset);
    return presentDataset(await deleteDataset(database, dataset));
  });

  app.put('/datasets/:dataset_id/publish', { schema: { params: DatasetIdParams } }, async (request) => {
    const dataset = await getDatasetOrThrow(db, request.params.dataset_id);
    await authorizeDatasetWrite(db, request.user, dataset);
    return presentDataset(await publishDataset(database, dataset));
  });

  app.get('/datasets/:dataset_id/progress', { config: { expensive: 'read' }, schema: { params: DatasetIdParams } }, async (request) => {
    const dataset = await getDatasetOrThrow(db, request.params.dataset_id);
    await authorizeDatasetRead(db, request.user, dataset);
    return getDatasetProgress(database, dataset);
  });

  app.get('/datasets/:dataset_id/users/progress', { config: { expensive: 'read' }, schema: { params: DatasetIdParams } }, async (request) => {
    const dataset = await getDatasetOrThrow(db, request.params.dataset_id);
    await authorizeDatasetRead(db, request.user, dataset);
    return getDatasetUsersProgress(database, dataset);
  });

  app.get('/me/datasets/:dataset_id/metrics', { config: { expensive: 'read' }, schema: { params: DatasetIdParams } }, async (request) => {
    const dataset = await getDatasetOrThrow(db, request.params.dataset_id);
    await authorizeDatasetRead(db, request.user, dataset);
    return getUserDatasetMetrics(database, dataset, request.user);
  });
};
