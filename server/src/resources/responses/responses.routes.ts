import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, ResponseBody, ResponsesBulkBody } from '@scholia/shared/contract';
import { presentResponse } from './response.presenter.js';
import { createResponse, deleteResponse, updateResponse, upsertMyResponses } from './responses.service.js';

const RecordParams = IdParams('record_id');
const ResponseParams = IdParams('response_id');

/** Responses (contract §2.10): any member answers; the author or an admin member edits. */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const database = app.database;

  app.post('/records/:record_id/responses', { schema: { params: RecordParams, body: ResponseBody } }, async (request, reply) => {
    const response = await createResponse(database, request.user, request.params.record_id as string, request.body);
    return reply.code(201).send(presentResponse(response));
  });

  app.put('/responses/:response_id', { schema: { params: ResponseParams, body: ResponseBody } }, async (request) =>
    updateResponse(database, request.user, request.params.response_id as string, request.body),
  );

  app.delete('/responses/:response_id', { schema: { params: ResponseParams } }, async (request) =>
    deleteResponse(database, request.user, request.params.response_id as string),
  );

  app.post('/me/responses/bulk', { config: { expensive: 'write' }, schema: { body: ResponsesBulkBody } }, async (request) => ({
    items: await upsertMyResponses(database, request.user, request.body.items),
  }));
};
