import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { UserIdentityBody, UserIdentityParams } from '@scholia/shared/contract';
import { authorizeUserAdministration } from '../users/users.policy.js';
import { presentIdentity } from './identities.presenter.js';
import { linkIdentity, listIdentities, unlinkIdentity } from './identities.service.js';

/**
 * Sign-in identities of accounts (Scholia extension), owner-only like `/users`: which account a
 * provider's subject opens. An owner links an account explicitly (say, a local account its owner
 * now signs in to with Hugging Face) or unlinks it.
 */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.database;

  app.get('/identities', async (request) => {
    authorizeUserAdministration(request.user);
    return { items: (await listIdentities(db)).map(presentIdentity) };
  });

  app.put('/users/:user_id/identities/:provider', { schema: { params: UserIdentityParams, body: UserIdentityBody } }, async (request) => {
    authorizeUserAdministration(request.user);
    const { user_id: userId, provider } = request.params;
    return presentIdentity(await linkIdentity(db, userId, provider, request.body.subject));
  });

  app.delete('/users/:user_id/identities/:provider', { schema: { params: UserIdentityParams } }, async (request) => {
    authorizeUserAdministration(request.user);
    const { user_id: userId, provider } = request.params;
    return presentIdentity(await unlinkIdentity(db, userId, provider));
  });
};
