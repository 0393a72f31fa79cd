import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { LARGE_BODY_BYTES, memoryReleasePlugin } from './memory-release.js';

describe('memoryReleasePlugin', () => {
  it('asks for a release after answering a large upload, not after small requests', async () => {
    const soon = vi.fn();
    const app = Fastify({ bodyLimit: 4 * LARGE_BODY_BYTES });
    await app.register(memoryReleasePlugin, { release: { soon } });
    app.post('/upload', async (request) => ({ bytes: JSON.stringify(request.body).length }));
    await app.ready();

    const small = await app.inject({ method: 'POST', url: '/upload', payload: { text: 'a'.repeat(1_000) } });
    expect(small.statusCode).toBe(200);
    expect(soon).not.toHaveBeenCalled();

    const large = await app.inject({ method: 'POST', url: '/upload', payload: { text: 'a'.repeat(LARGE_BODY_BYTES) } });
    expect(large.statusCode).toBe(200);
    expect(soon).toHaveBeenCalledTimes(1);
    await app.close();
  });
});
