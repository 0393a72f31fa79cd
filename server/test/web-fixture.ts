import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { webPlugin } from '../src/plugins/external/web.js';

export interface WebFixture {
  app: FastifyInstance;
  webDir: string;
  close(): Promise<void>;
}

/** The web plugin alone over a temporary build folder holding `files` (relative path → content). */
export async function startWebPlugin(files: Record<string, string | Buffer>, options: { serveSourceMaps?: boolean } = {}): Promise<WebFixture> {
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-web-'));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(webDir, name)), { recursive: true });
    fs.writeFileSync(path.join(webDir, name), content);
  }
  const app = Fastify();
  await app.register(webPlugin, { webDir, ...options });
  await app.ready();
  return {
    app,
    webDir,
    async close() {
      await app.close();
      fs.rmSync(webDir, { recursive: true, force: true });
    },
  };
}
