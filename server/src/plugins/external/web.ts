import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { createRemoteRegistry, type RemoteRegistry } from '../../remotes/remote-registry.js';
import { readBootManifest, renderIndexHtml } from './boot-manifest.js';

/** Content-hashed build output: cached for a year (remoteEntry.js, manifests and HTML are not). */
const HASHED_ASSET = /\.[0-9a-f]{8}\.(js|css)(\.(br|gz))?$/;
const SOURCE_MAP = /\.map(\.(br|gz))?$/;
const PRECOMPRESSED_SUFFIX = /\.(br|gz)$/;

/**
 * Serves the built frontends from one origin when they exist: the shell at `/` (history-mode
 * fallback to its index.html, with the remote manifest inlined: boot-manifest.ts) and each remote under `/remotes/<name>/`. The build writes a
 * brotli and a gzip copy next to each JS, CSS, JSON and HTML file (scripts/build-web.mjs);
 * `preCompressed` sends the best one the browser accepts, else the plain file.
 */
export const webPlugin = fp(
  async (app: FastifyInstance, options: { webDir?: string; serveSourceMaps?: boolean; remotes?: RemoteRegistry; remoteOverrides?: boolean }) => {
    const webDir = options.webDir;
    if (!webDir || !fs.existsSync(path.join(webDir, 'index.html'))) return;
    const remotes = options.remotes ?? createRemoteRegistry({ webDir, registrations: {}, log: app.log });
    const serveSourceMaps = options.serveSourceMaps ?? false;
    // setHeaders below writes Vary on the raw response; a Vary the reply carries too (CORS's Origin)
    // would replace it when the head is written, so the two are joined.
    app.addHook('onSend', async (_request, reply) => {
      const rawVary = reply.raw.getHeader('vary');
      const replyVary = reply.getHeader('vary');
      if (rawVary && replyVary) reply.header('Vary', `${String(replyVary)}, ${String(rawVary)}`);
    });
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      // Source maps show the frontends' source to anyone: only when the operator asks for them.
      allowedPath: (pathName) => serveSourceMaps || !SOURCE_MAP.test(pathName),
      // Without this `send` writes `Cache-Control: public, max-age=0` after setHeaders, so the
      // immutable header below never reached the browser.
      cacheControl: false,
      // The build's remotes.json is one layer of the registry: /remotes.json answers below.
      globIgnore: ['remotes.json', 'remotes.json.*'],
      setHeaders(res, filePath) {
        res.setHeader('Cache-Control', HASHED_ASSET.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache');
        // Caches must keep the brotli, gzip and plain answers apart.
        res.setHeader('Vary', 'Accept-Encoding');
        // The build leaves no sourceMappingURL comment in the bundles (maps are hidden unless
        // served); when they are served, this header leads the browser's tools to them.
        const plainFile = filePath.replace(PRECOMPRESSED_SUFFIX, '');
        if (serveSourceMaps && /\.(js|css)$/.test(plainFile) && fs.existsSync(`${plainFile}.map`)) {
          res.setHeader('SourceMap', `${path.basename(plainFile)}.map`);
        }
      },
    });
    // What the shell loads: every registered remote with its version (remote-registry.ts).
    app.get('/remotes.json', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
      reply.header('Cache-Control', 'no-cache').send(await remotes.describe()));
    app.get('/*', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      const urlPath = decodeURIComponent(request.url.split('?')[0]);
      if (urlPath.startsWith('/api/')) return reply.code(404).send({ detail: 'Not Found' });
      const file = path.join(webDir, path.normalize(urlPath));
      if (file.startsWith(webDir) && fs.existsSync(file) && fs.statSync(file).isFile()) {
        return reply.sendFile(path.relative(webDir, file));
      }
      // A missing map or remote file is a 404, not the shell's page (a withheld map is refused by
      // allowedPath): a host loading a remote's chunk must see the failure, not parse HTML as script.
      if (SOURCE_MAP.test(urlPath) || urlPath.startsWith('/remotes/')) return reply.code(404).send({ detail: 'Not Found' });
      const html = renderIndexHtml(await fs.promises.readFile(path.join(webDir, 'index.html'), 'utf8'), await readBootManifest(remotes, options.remoteOverrides ?? false));
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(html);
    });
  },
  { name: 'web' },
);
