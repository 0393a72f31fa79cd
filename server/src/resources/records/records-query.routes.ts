import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { RecordsPageQuery, SearchDatasetParams, SearchRecordParams } from '@scholia/shared/contract';
import { parseRecordInclude } from './record-include.js';
import { getRecord, listDatasetRecords, listSuggestionOptions } from './records-query.service.js';

/** Record reads (contract §2.9): dataset listing, one record, suggestion agents per question. */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.database;

  app.get('/datasets/:dataset_id/records', { config: { expensive: 'read' }, schema: { params: SearchDatasetParams, querystring: RecordsPageQuery } }, async (request) => {
    const { offset = 0, limit = 50, include } = request.query;
    const page = { offset, limit, include: parseRecordInclude(include) };
    return listDatasetRecords(db, request.user, request.params.dataset_id, page);
  });

  app.get('/records/:record_id', { schema: { params: SearchRecordParams } }, async (request) =>
    getRecord(db, request.user, request.params.record_id),
  );

  app.get('/datasets/:dataset_id/records/search/suggestions/options', { schema: { params: SearchDatasetParams } }, async (request) =>
    listSuggestionOptions(db, request.user, request.params.dataset_id),
  );
};
