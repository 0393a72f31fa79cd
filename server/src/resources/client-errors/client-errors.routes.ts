import type { FastifyPluginAsync } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ClientErrorReport } from '@scholia/shared/contract';
import { TooManyRequestsError } from '../../errors.js';

/** Reports a minute from one client address; a page reports each problem once, so this is generous. */
const REPORTS_PER_MINUTE = 20;
/** Well above the largest report the schema accepts (about 4 KB of strings). */
const BODY_LIMIT_BYTES = 8 * 1024;

/**
 * Scholia extension: `POST /client-errors` writes what the web app reports into the server log
 * (a remote the shell would not mount, or could not load). Public, since a page reports before
 * anyone signs in; bounded in size and rate so it cannot flood the log.
 */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  await app.register(rateLimit, { global: false });

  app.post('/client-errors', {
    bodyLimit: BODY_LIMIT_BYTES,
    schema: { body: ClientErrorReport },
    config: {
      public: true,
      rateLimit: {
        max: REPORTS_PER_MINUTE,
        timeWindow: 60_000,
        keyGenerator: (request) => request.ip,
        errorResponseBuilder: (_request, context) =>
          new TooManyRequestsError(`Too many client error reports from this address, retry in ${context.after}`, Math.ceil(context.ttl / 1000)),
      },
    },
  }, async (request, reply) => {
    const { kind, remote, message, details } = request.body;
    request.log.warn({ clientError: { kind, remote, message, details }, userAgent: request.headers['user-agent']?.slice(0, 200) },
      `client error: ${kind} ${remote}: ${message}`);
    return reply.code(204).send();
  });
};
