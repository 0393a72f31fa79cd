import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  DatasetIdParams,
  MetadataPropertyCreateBody,
  MetadataPropertyIdParams,
  MetadataPropertyUpdateBody,
} from '@scholia/shared/contract';
import { listMetadataProperties } from '../../storage/repositories/dataset-settings.repository.js';
import { getDatasetOrThrow } from '../datasets/dataset-lookup.js';
import { authorizeDatasetRead, authorizeDatasetWrite } from '../datasets/datasets.policy.js';
import { presentMetadataProperty } from './metadata-property.presenter.js';
import { authorizeMetadataPropertyRead, canSeeMetadataProperty } from './metadata-properties.policy.js';
import {
  createMetadataProperty,
  deleteMetadataProperty,
  getMetadataPropertyMetrics,
  getMetadataPropertyOrThrow,
  updateMetadataProperty,
} from './metadata-properties.service.js';

/** Metadata properties (contract §2.7). */
export const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const database = app.database;
  const { db } = database;

  app.get('/me/datasets/:dataset_id/metadata-properties', { schema: { params: DatasetIdParams } }, async (request) => {
    const dataset = await getDatasetOrThrow(db, request.params.dataset_id);
    await authorizeDatasetRead(db, request.user, dataset);
    const properties = await listMetadataProperties(db, dataset.id);
    return { items: properties.filter((p) => canSeeMetadataProperty(request.user, p)).map(presentMetadataProperty) };
  });

  app.post(
    '/datasets/:dataset_id/metadata-properties',
    { schema: { params: DatasetIdParams, body: MetadataPropertyCreateBody } },
    async (request, reply) => {
      const dataset = await getDatasetOrThrow(db, request.params.dataset_id);
      await authorizeDatasetWrite(db, request.user, dataset);
      const property = await createMetadataProperty(database, dataset, request.body);
      return reply.code(201).send(presentMetadataProperty(property));
    },
  );

  app.patch(
    '/metadata-properties/:metadata_property_id',
    { schema: { params: MetadataPropertyIdParams, body: MetadataPropertyUpdateBody } },
    async (request) => {
      const property = await getMetadataPropertyOrThrow(database, request.params.metadata_property_id);
      await authorizeDatasetWrite(db, request.user, await getDatasetOrThrow(db, property.dataset_id));
      return presentMetadataProperty(await updateMetadataProperty(database, property, request.body));
    },
  );

  app.delete('/metadata-properties/:metadata_property_id', { schema: { params: MetadataPropertyIdParams } }, async (request) => {
    const property = await getMetadataPropertyOrThrow(database, request.params.metadata_property_id);
    await authorizeDatasetWrite(db, request.user, await getDatasetOrThrow(db, property.dataset_id));
    return presentMetadataProperty(await deleteMetadataProperty(database, property));
  });

  app.get('/metadata-properties/:metadata_property_id/metrics', { config: { expensive: 'read' }, schema: { params: MetadataPropertyIdParams } }, async (request) => {
    const property = await getMetadataPropertyOrThrow(database, request.params.metadata_property_id);
    const dataset = await getDatasetOrThrow(db, property.dataset_id);
    await authorizeMetadataPropertyRead(db, request.user, dataset, property);
    return getMetadataPropertyMetrics(database, property);
  });
};
