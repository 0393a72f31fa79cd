import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { BulkValidationBody, IdParams, ValidationBody } from '@scholia/shared/contract';
import { reopenRecord, validateAgreeingRecords, validateRecord } from './review.service.js';

const RecordParams = IdParams('record_id');
const DatasetParams = IdParams('dataset_id');

/** Review (Scholia extension): owners and admin members settle a record's final answer, or reopen it. */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.database;

  app.put('/records/:record_id/validation', { schema: { params: RecordParams, body: ValidationBody } }, async (request) =>
    validateRecord(db, request.user, request.params.record_id as string, request.body.values),
  );

  app.delete('/records/:record_id/validation', { schema: { params: RecordParams } }, async (request) =>
    reopenRecord(db, request.user, request.params.record_id as string),
  );

  app.post(
    '/datasets/:dataset_id/records/validation/bulk',
    { config: { expensive: 'write' }, schema: { params: DatasetParams, body: BulkValidationBody } },
    async (request) => validateAgreeingRecords(db, request.user, request.params.dataset_id as string, request.body.record_ids),
  );
};
