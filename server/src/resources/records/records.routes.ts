import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams, IdsQuery, RecordsBulkCreateBody, RecordsBulkUpsertBody, RecordUpdateBody } from '@scholia/shared/contract';
import {
  createRecordsBulk,
  deleteDatasetRecords,
  deleteRecord,
  updateRecord,
  upsertRecordsBulk,
} from './records.service.js';
import { parseBulkBody, restoreBulkVectors } from './bulk-body.js';
import { sendRecordsEchoingVectors } from './vector-echo.js';
import { BULK_BODY_MAX_BYTES } from '../../lib/work-limits.js';

const DatasetParams = IdParams('dataset_id');
/**
 * Bulk writes: in the write work slots, their bodies within the bulk body budget, read by their own
 * parser. Their reply, which repeats every record written, is built on a turn of the event loop of
 * its own (`nextTurn`): on SQLite the write before it never yields, and the two together kept
 * other users' requests waiting for the whole of both.
 */
const bulkWrite = { expensive: 'write', bulkBody: true, parseJsonBody: parseBulkBody } as const;
const RecordParams = IdParams('record_id');

/**
 * Record writes (contract §2.9): bulk create / upsert / delete in a dataset, PATCH and DELETE
 * of one record. The read side (list, get, search) lives in its own routes file.
 */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const database = app.database;

  app.post(
    '/datasets/:dataset_id/records/bulk',
    { bodyLimit: BULK_BODY_MAX_BYTES, config: bulkWrite, schema: { params: DatasetParams, body: RecordsBulkCreateBody } },
    async (request, reply) => {
      const vectorTexts = restoreBulkVectors(request);
      const items = await createRecordsBulk(database, request.user, request.params.dataset_id as string, request.body.items);
      await nextTurn();
      return sendRecordsEchoingVectors(reply.code(201), { items }, vectorTexts);
    },
  );

  app.put(
    '/datasets/:dataset_id/records/bulk',
    { bodyLimit: BULK_BODY_MAX_BYTES, config: bulkWrite, schema: { params: DatasetParams, body: RecordsBulkUpsertBody } },
    async (request, reply) => {
      const vectorTexts = restoreBulkVectors(request);
      const result = await upsertRecordsBulk(database, request.user, request.params.dataset_id as string, request.body.items);
      await nextTurn();
      return sendRecordsEchoingVectors(reply, result, vectorTexts);
    },
  );

  app.delete(
    '/datasets/:dataset_id/records',
    { config: { expensive: 'write' }, schema: { params: DatasetParams, querystring: IdsQuery } },
    async (request, reply) => {
      await deleteDatasetRecords(database, request.user, request.params.dataset_id as string, request.query.ids);
      return reply.code(204).send();
    },
  );

  app.patch('/records/:record_id', { schema: { params: RecordParams, body: RecordUpdateBody } }, async (request) =>
    updateRecord(database, request.user, request.params.record_id as string, request.body),
  );

  app.delete('/records/:record_id', { schema: { params: RecordParams } }, async (request) =>
    deleteRecord(database, request.user, request.params.record_id as string),
  );
};

