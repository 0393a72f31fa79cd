import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';

const resourcesDir = path.dirname(fileURLToPath(import.meta.url));

/**
 * Registers every `resources/<noun>/<noun>.routes.ts` under /api/v1. Each routes module exports
 * `routes` (a Fastify plugin). Argilla paths nest across nouns, so folders add no prefix.
 */
export async function loadResources(app: FastifyInstance): Promise<void> {
  const files = fs
    .readdirSync(resourcesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((dir) =>
      fs
        .readdirSync(path.join(resourcesDir, dir.name))
        .filter((file) => /\.routes\.(ts|js)$/.test(file))
        .map((file) => path.join(resourcesDir, dir.name, file)),
    )
    .sort();
  for (const file of files) {
    const module = (await import(pathToFileURL(file).href)) as { routes?: FastifyPluginAsync };
    if (!module.routes) throw new Error(`${file} does not export 'routes'`);
    await app.register(module.routes, { prefix: '/api/v1' });
  }
}
