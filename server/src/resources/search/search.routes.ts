import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { RecordsPageQuery, SearchBody, SearchDatasetParams } from '@scholia/shared/contract';
import { parseRecordInclude } from '../records/record-include.js';
import { searchRecords } from './search.service.js';

/**
 * Record search (contract §4): `POST /datasets/{id}/records/search` for admin members and
 * owners (every user's responses), `POST /me/datasets/{id}/records/search` for any member
 * (the caller's response only, metadata filtered for annotators).
 */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const schema = { params: SearchDatasetParams, querystring: RecordsPageQuery, body: SearchBody };

  for (const me of [false, true]) {
    app.post(`${me ? '/me' : ''}/datasets/:dataset_id/records/search`, { config: { expensive: 'read' }, schema }, async (request) => {
      const { offset = 0, limit = 50, include } = request.query;
      const options = { me, offset, limit, include: parseRecordInclude(include) };
      return searchRecords(app.database, request.user, request.params.dataset_id, request.body ?? {}, options);
    });
  }
};
