import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../errors.js';
import type { TokenService } from '../../auth/tokens.js';
import { findUserByApiKey, findUserById } from '../../storage/repositories/users.repository.js';
import type { UserRow } from '../../storage/tables.js';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenService;
  }
  interface FastifyRequest {
    /** The signed-in user; set on every non-public route before the handler runs. */
    user: UserRow;
  }
  interface FastifyContextConfig {
    /** Route answers without credentials (contract §0: token, version, status, settings, oauth2). */
    public?: boolean;
  }
}

/**
 * Resolves the caller from `X-Argilla-Api-Key`, then `Authorization: Bearer <jwt>` (contract §1.1).
 * Every /api/v1 route is private unless it declares `config: { public: true }`.
 */
export const authenticationPlugin = fp(
  async (app: FastifyInstance, options: { tokens: TokenService }) => {
    app.decorate('tokens', options.tokens);
    app.decorateRequest('user', undefined as unknown as UserRow);
    app.addHook('onRequest', async (request) => {
      // Key on the matched route, not the raw URL: `/api/%761/users` or an absolute-form target
      // (`GET http://host/api/v1/users`) reaches an /api/v1 route without starting with '/api/v1/'.
      const route = request.routeOptions.url ?? '';
      if (request.is404 || request.routeOptions.config.public || !(route === '/api/v1' || route.startsWith('/api/v1/'))) return;
      request.user = await resolveUser(app, request);
    });
  },
  { name: 'authentication', dependencies: ['database'] },
);

async function resolveUser(app: FastifyInstance, request: FastifyRequest): Promise<UserRow> {
  const { db } = app.database;
  const apiKey = request.headers['x-argilla-api-key'];
  if (typeof apiKey === 'string' && apiKey) {
    const user = await findUserByApiKey(db, apiKey);
    if (user) return user;
  }
  const authorization = request.headers.authorization;
  if (authorization?.toLowerCase().startsWith('bearer ')) {
    const subject = await app.tokens.verify(authorization.slice(7).trim());
    const user = subject ? await findUserById(db, subject.userId) : undefined;
    // A deleted user, or one whose password or key changed since the token was issued.
    if (!user || user.token_version !== subject?.tokenVersion) throw new UnauthorizedError('Invalid token');
    return user;
  }
  throw new UnauthorizedError();
}
