import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built frontends from one origin when they exist: the shell at `/` (history-mode
 * fallback to its index.html) and each remote under `/remotes/<name>/`.
 */
export const webPlugin = fp(
  async (app: FastifyInstance, options: { webDir?: string }) => {
    const webDir = options.webDir;
    if (!webDir || !fs.existsSync(path.join(webDir, 'index.html'))) return;
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        const immutable = /\.[0-9a-f]{8}\.(js|css)$/.test(filePath);
        res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.get('/*', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      const urlPath = decodeURIComponent(request.url.split('?')[0]);
      if (urlPath.startsWith('/api/')) return reply.code(404).send({ detail: 'Not Found' });
      const file = path.join(webDir, path.normalize(urlPath));
      if (file.startsWith(webDir) && fs.existsSync(file) && fs.statSync(file).isFile()) {
        return reply.sendFile(path.relative(webDir, file));
      }
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    });
  },
  { name: 'web' },
);
