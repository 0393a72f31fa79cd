import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DatasetIdParams, FieldCreateBody, FieldIdParams, FieldUpdateBody } from '@scholia/shared/contract';
import { listFields } from '../../storage/repositories/dataset-settings.repository.js';
import { getDatasetOrThrow } from '../datasets/dataset-lookup.js';
import { authorizeDatasetRead, authorizeDatasetWrite } from '../datasets/datasets.policy.js';
import { presentField } from './field.presenter.js';
import { createField, deleteField, getFieldOrThrow, updateField } from './fields.service.js';

/** Fields (contract §2.5). */
export const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const database = app.database;
  const { db } = database;

  app.get('/datasets/:dataset_id/fields', { schema: { params: DatasetIdParams } }, async (request) => {
    const dataset = await getDatasetOrThrow(db, request.params.dataset_id);
    await authorizeDatasetRead(db, request.user, dataset);
    return { items: (await listFields(db, dataset.id)).map(presentField) };
  });

  app.post('/datasets/:dataset_id/fields', { schema: { params: DatasetIdParams, body: FieldCreateBody } }, async (request, reply) => {
    const dataset = await getDatasetOrThrow(db, request.params.dataset_id);
    await authorizeDatasetWrite(db, request.user, dataset);
    const field = await createField(database, dataset, request.body);
    return reply.code(201).send(presentField(field));
  });

  app.patch('/fields/:field_id', { schema: { params: FieldIdParams, body: FieldUpdateBody } }, async (request) => {
    const field = await getFieldOrThrow(database, request.params.field_id);
    await authorizeDatasetWrite(db, request.user, await getDatasetOrThrow(db, field.dataset_id));
    return presentField(await updateField(database, field, request.body));
  });

  app.delete('/fields/:field_id', { schema: { params: FieldIdParams } }, async (request) => {
    const field = await getFieldOrThrow(database, request.params.field_id);
    const dataset = await getDatasetOrThrow(db, field.dataset_id);
    await authorizeDatasetWrite(db, request.user, dataset);
    return presentField(await deleteField(database, dataset, field));
  });
};
