import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AgreementQuery, IdParams } from '@scholia/shared/contract';
import { AgreementFilters, parseAgreementFilters, type FiltersCheck } from './agreement-filters.js';
import { datasetAgreement } from './agreement.service.js';

const DatasetParams = IdParams('dataset_id');

/** Inter-annotator agreement of a dataset (Scholia extension). */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.database;

  app.get('/datasets/:dataset_id/agreement', { config: { expensive: 'read' }, schema: { params: DatasetParams, querystring: AgreementQuery } }, async (request) => {
    const check = request.compileValidationSchema(AgreementFilters, 'body') as FiltersCheck;
    const body = parseAgreementFilters(request.query.filters, check);
    return datasetAgreement(db, request.user, request.params.dataset_id as string, body);
  });
};
