import type { FastifyPluginAsync } from 'fastify';
import type { ApiKeyRotation } from '@scholia/shared/contract';
import { presentCurrentUser } from '../users/users.presenter.js';
import { rotateApiKey } from '../users/users.service.js';
import { presentWorkspace } from '../workspaces/workspaces.presenter.js';
import { listWorkspacesOf } from '../workspaces/workspaces.service.js';

/** The signed-in user (contract §1.4), their workspaces (§2.3) and their API key; any authenticated user. */
export const routes: FastifyPluginAsync = async (app) => {
  const { db } = app.database;

  app.get('/me', async (request) => presentCurrentUser(request.user));

  app.get('/me/workspaces', async (request) => ({
    items: (await listWorkspacesOf(db, request.user)).map(presentWorkspace),
  }));

  /**
   * Scholia extension: replaces the caller's API key. The old key and every earlier token stop
   * working, so the answer also carries a fresh token for the session that asked.
   */
  app.post('/me/api-key', async (request, reply) => {
    const user = await rotateApiKey(db, request.user);
    const body: ApiKeyRotation = { api_key: user.api_key, access_token: await app.tokens.issue(user), token_type: 'bearer' };
    return reply.code(201).send(body);
  });
};
