import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { UserCreateBody, UserIdParams, UserUpdateBody } from '@scholia/shared/contract';
import { listWorkspacesOf } from '../workspaces/workspaces.service.js';
import { presentWorkspace } from '../workspaces/workspaces.presenter.js';
import { authorizeUserAdministration } from './users.policy.js';
import { presentUser } from './users.presenter.js';
import { createUser, deleteUser, getUser, listUsers, updateUser } from './users.service.js';

/**
 * `/users` (contract §2.2), owner-only. List, get, create and `/workspaces` authorize before
 * loading; PATCH and DELETE load first (404 before 403), as the reference does.
 */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.database;

  app.get('/users', async (request) => {
    authorizeUserAdministration(request.user);
    return { items: (await listUsers(db)).map(presentUser) };
  });

  app.get('/users/:user_id', { schema: { params: UserIdParams } }, async (request) => {
    authorizeUserAdministration(request.user);
    return presentUser(await getUser(db, request.params.user_id));
  });

  app.post('/users', { schema: { body: UserCreateBody } }, async (request, reply) => {
    authorizeUserAdministration(request.user);
    return reply.code(201).send(presentUser(await createUser(db, request.body)));
  });

  app.patch('/users/:user_id', { schema: { params: UserIdParams, body: UserUpdateBody } }, async (request) => {
    const user = await getUser(db, request.params.user_id);
    authorizeUserAdministration(request.user);
    return presentUser(await updateUser(db, user, request.body));
  });

  app.delete('/users/:user_id', { schema: { params: UserIdParams } }, async (request) => {
    const user = await getUser(db, request.params.user_id);
    authorizeUserAdministration(request.user);
    return presentUser(await deleteUser(db, user));
  });

  app.get('/users/:user_id/workspaces', { schema: { params: UserIdParams } }, async (request) => {
    authorizeUserAdministration(request.user);
    const user = await getUser(db, request.params.user_id);
    return { items: (await listWorkspacesOf(db, user)).map(presentWorkspace) };
  });
};
