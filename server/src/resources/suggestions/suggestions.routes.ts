import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, IdsQuery, SuggestionCreate } from '@scholia/shared/contract';
import { presentSuggestion } from './suggestion.presenter.js';
import {
  deleteRecordSuggestions,
  deleteSuggestionById,
  listRecordSuggestions,
  upsertRecordSuggestion,
} from './suggestions.service.js';

const RecordParams = IdParams('record_id');
const SuggestionParams = IdParams('suggestion_id');

/** Suggestions of a record (contract §2.11): members read, admin members write. */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const database = app.database;

  app.get('/records/:record_id/suggestions', { schema: { params: RecordParams } }, async (request) => ({
    items: (await listRecordSuggestions(database, request.user, request.params.record_id as string)).map(presentSuggestion),
  }));

  app.put('/records/:record_id/suggestions', { schema: { params: RecordParams, body: SuggestionCreate } }, async (request, reply) => {
    const { created, suggestion } = await upsertRecordSuggestion(database, request.user, request.params.record_id as string, request.body);
    return reply.code(created ? 201 : 200).send(presentSuggestion(suggestion));
  });

  app.delete('/records/:record_id/suggestions', { schema: { params: RecordParams, querystring: IdsQuery } }, async (request, reply) => {
    await deleteRecordSuggestions(database, request.user, request.params.record_id as string, request.query.ids);
    return reply.code(204).send();
  });

  app.delete('/suggestions/:suggestion_id', { schema: { params: SuggestionParams } }, async (request) =>
    presentSuggestion(await deleteSuggestionById(database, request.user, request.params.suggestion_id as string)),
  );
};
