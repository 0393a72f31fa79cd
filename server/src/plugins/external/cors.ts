import fp from 'fastify-plugin';
import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** What an embedding page may send: the API's verbs and its two ways to authenticate. */
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const ALLOWED_HEADERS = ['X-Argilla-Api-Key', 'Authorization', 'Content-Type'];

/**
 * Lets pages on the configured origins (SCHOLIA_CORS_ORIGINS) call the API and load the remotes'
 * manifests, entries and chunks, preflights included. Authentication stays in headers: no cookies
 * or credentials mode, so another origin can never ride on a browser session. Any other origin gets
 * no CORS header at all (its preflight is a 404), and every answer varies on Origin so caches keep
 * the two apart.
 */
export const corsPlugin = fp(
  async (app: FastifyInstance, options: { origins: string[] }) => {
    if (options.origins.length === 0) return;
    const allowed = new Set(options.origins);
    await app.register(fastifyCors, {
      origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin) ? origin : false),
      methods: ALLOWED_METHODS,
      allowedHeaders: ALLOWED_HEADERS,
      // The sign-in and work-slot limits answer 429 with Retry-After: a host needs to read it.
      exposedHeaders: ['Retry-After'],
      credentials: false,
      maxAge: 600,
    });
  },
  { name: 'cors' },
);
