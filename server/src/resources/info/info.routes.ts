import type { FastifyPluginAsync } from 'fastify';
import { SERVER_VERSION } from '../../lib/version.js';
import { readEnvironmentSettings, readHubEndpoints } from './environment-settings.js';

/** `/version`, `/status`, `/settings` (contract §2.1): public. */
export const routes: FastifyPluginAsync = async (app) => {
  app.get('/version', { config: { public: true } }, async () => ({ version: SERVER_VERSION }));

  app.get('/status', { config: { public: true } }, async () => {
    const memory = process.memoryUsage();
    return {
      version: SERVER_VERSION,
      search_engine: { name: app.database.dialect === 'sqlite' ? 'sqlite-fts5' : 'postgresql' },
      memory: { rss: memory.rss, heap_used: memory.heapUsed, heap_total: memory.heapTotal },
    };
  });

  app.get('/settings', { config: { public: true } }, async () => ({
    ...readEnvironmentSettings(app.config),
    scholia: readHubEndpoints(app.config),
  }));
};
