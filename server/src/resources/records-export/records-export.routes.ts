import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DatasetIdParams, RecordsExportQuery } from '@scholia/shared/contract';
import { prepareRecordsExport } from './records-export.service.js';

/** `GET /datasets/{id}/records/export?format=jsonl|csv` (Scholia extension): the records as a file. */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/datasets/:dataset_id/records/export', { config: { expensive: 'read' }, schema: { params: DatasetIdParams, querystring: RecordsExportQuery } }, async (request, reply) => {
    const file = await prepareRecordsExport(app.database.db, request.user, request.params.dataset_id, request.query.format);
    reply.header('Content-Type', file.contentType).header('Content-Disposition', file.contentDisposition);
    reply.send(Readable.from(file.chunks));
    // Held until the last byte is out, so the export keeps its work slot while it reads the records.
    await finished(reply.raw).catch(() => undefined);
    return reply;
  });
};
