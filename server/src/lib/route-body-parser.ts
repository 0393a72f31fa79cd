import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Parses the route's JSON body in place of the server's parser. It must refuse what the
     * server's parser refuses (malformed JSON, a `__proto__` key, findUnacceptableJson).
     */
    parseJsonBody?: (request: FastifyRequest, text: string) => Promise<unknown>;
  }
}

export const routeBodyParser = (request: FastifyRequest) => request.routeOptions.config?.parseJsonBody;
