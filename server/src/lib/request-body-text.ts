import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads its JSON body's text as well as the parsed body (bodyTextOf). */
    keepBodyText?: boolean;
  }
}

/**
 * The text of a request's JSON body, kept past parsing for routes that ask for it only: a bulk
 * write's body is megabytes, so other routes let it go as soon as it is parsed.
 */
const texts = new WeakMap<FastifyRequest, string>();

export function keepBodyTextIfWanted(request: FastifyRequest, text: string): void {
  if (request.routeOptions.config?.keepBodyText) texts.set(request, text);
}

export const bodyTextOf = (request: FastifyRequest): string | undefined => texts.get(request);
