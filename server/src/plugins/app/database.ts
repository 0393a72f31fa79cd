import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../storage/dialect.js';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
  }
}

/** Makes the opened database available as `app.database`; closes it with the app. */
export const databasePlugin = fp(
  async (app: FastifyInstance, options: { database: Database }) => {
    app.decorate('database', options.database);
    app.addHook('onClose', async () => options.database.close());
  },
  { name: 'database' },
);
