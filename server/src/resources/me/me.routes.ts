import type { FastifyPluginAsync } from 'fastify';
import { presentUser } from '../users/users.presenter.js';
import { presentWorkspace } from '../workspaces/workspaces.presenter.js';
import { listWorkspacesOf } from '../workspaces/workspaces.service.js';

/** The signed-in user (contract §1.4) and their workspaces (§2.3); any authenticated user. */
export const routes: FastifyPluginAsync = async (app) => {
  const { db } = app.database;

  app.get('/me', async (request) => presentUser(request.user));

  app.get('/me/workspaces', async (request) => ({
    items: (await listWorkspacesOf(db, request.user)).map(presentWorkspace),
  }));
};
