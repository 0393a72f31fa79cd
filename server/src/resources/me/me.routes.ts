import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { PasswordChangeBody, type ApiKeyRotation, type TokenResponse } from '@scholia/shared/contract';
import { presentCurrentUser } from '../users/users.presenter.js';
import { rotateApiKey } from '../users/users.service.js';
import { presentWorkspace } from '../workspaces/workspaces.presenter.js';
import { listWorkspacesOf } from '../workspaces/workspaces.service.js';
import { changeOwnPassword } from './password.service.js';

/** The signed-in user (contract §1.4), their workspaces (§2.3), their API key and password; any authenticated user. */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
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

  /**
   * Scholia extension: the caller's new password (there is no user id: only one's own). Also with
   * an API key, since the current password is the proof. Every earlier token stops working, so
   * the answer carries a fresh token for the session that asked.
   */
  app.put('/me/password', { schema: { body: PasswordChangeBody } }, async (request) => {
    const user = await changeOwnPassword(db, request.user, request.body, app.signInLimits.usernameBackoff);
    const body: TokenResponse = { access_token: await app.tokens.issue(user), token_type: 'bearer' };
    return body;
  });
};
