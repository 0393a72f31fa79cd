import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { WorkspaceCreateBody, WorkspaceIdParams, WorkspaceUserCreateBody, WorkspaceUserParams } from '@scholia/shared/contract';
import { presentUser } from '../users/users.presenter.js';
import { workspacePolicy } from './workspaces.policy.js';
import { presentWorkspace } from './workspaces.presenter.js';
import {
  addWorkspaceUser,
  createWorkspace,
  deleteWorkspace,
  getWorkspace,
  getWorkspaceUser,
  listWorkspaceUsers,
  removeWorkspaceUser,
} from './workspaces.service.js';

/**
 * `/workspaces` and their members (contract §2.3). All but the member removal authorize before
 * loading (contract §1.5 check order). `GET /me/workspaces` lives in resources/me.
 */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.database;

  app.get('/workspaces/:workspace_id', { schema: { params: WorkspaceIdParams } }, async (request) => {
    await workspacePolicy.get(db, request.user, request.params.workspace_id);
    return presentWorkspace(await getWorkspace(db, request.params.workspace_id));
  });

  app.post('/workspaces', { schema: { body: WorkspaceCreateBody } }, async (request, reply) => {
    workspacePolicy.create(request.user);
    return reply.code(201).send(presentWorkspace(await createWorkspace(db, request.body)));
  });

  app.delete('/workspaces/:workspace_id', { schema: { params: WorkspaceIdParams } }, async (request) => {
    workspacePolicy.delete(request.user);
    const workspace = await getWorkspace(db, request.params.workspace_id);
    return presentWorkspace(await deleteWorkspace(db, workspace));
  });

  app.get('/workspaces/:workspace_id/users', { schema: { params: WorkspaceIdParams } }, async (request) => {
    await workspacePolicy.listUsers(db, request.user, request.params.workspace_id);
    const workspace = await getWorkspace(db, request.params.workspace_id);
    return { items: (await listWorkspaceUsers(db, workspace)).map(presentUser) };
  });

  app.post(
    '/workspaces/:workspace_id/users',
    { schema: { params: WorkspaceIdParams, body: WorkspaceUserCreateBody } },
    async (request, reply) => {
      workspacePolicy.addUser(request.user);
      const workspace = await getWorkspace(db, request.params.workspace_id);
      return reply.code(201).send(presentUser(await addWorkspaceUser(db, workspace, request.body.user_id)));
    },
  );

  app.delete('/workspaces/:workspace_id/users/:user_id', { schema: { params: WorkspaceUserParams } }, async (request) => {
    const { workspace_id: workspaceId, user_id: userId } = request.params;
    const user = await getWorkspaceUser(db, workspaceId, userId);
    await workspacePolicy.removeUser(db, request.user, workspaceId);
    return presentUser(await removeWorkspaceUser(db, workspaceId, user));
  });
};
