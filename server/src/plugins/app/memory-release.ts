import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { memoryRelease as processRelease, type MemoryRelease } from '../../lib/memory-release.js';

/** Bodies from this size on (bulk record uploads: ~1 MB per 500 records) count as heavy work. */
export const LARGE_BODY_BYTES = 256 * 1024;

/** After a large upload has been answered, the process's free C memory goes back once the server is quiet. */
export const memoryReleasePlugin = fp(
  async (app: FastifyInstance, options: { release?: MemoryRelease }) => {
    const release = options.release ?? processRelease;
    // Runs after every response: a callback hook, no promise per request.
    app.addHook('onResponse', (request, _reply, done) => {
      if (Number(request.headers['content-length'] ?? 0) >= LARGE_BODY_BYTES) release.soon();
      done();
    });
  },
  { name: 'memory-release' },
);
