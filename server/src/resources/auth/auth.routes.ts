import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { OAuthProviderParams, TokenBody } from '@scholia/shared/contract';
import { authenticateUser } from './auth.service.js';
import { createOAuthProviders, requireOAuthProvider } from './oauth-providers.js';

/**
 * Sign-in (contract §1.2, §1.3): `POST /token` and the OAuth2 routes, all public.
 * Login attempts are rate-limited per client IP and username (SCHOLIA_LOGIN_RATE_LIMIT a minute).
 */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.database;
  const providers = createOAuthProviders({ config: app.config, db });
  const perMinute = app.config.loginRateLimitPerMinute;

  await app.register(rateLimit, { global: false });

  app.post(
    '/token',
    {
      schema: { body: TokenBody },
      // No body at all reports the missing fields, as FastAPI does, rather than "not an object".
      preValidation: async (request) => {
        (request as { body: unknown }).body ??= {};
      },
      config: {
        public: true,
        // preHandler: the key needs the parsed form body; a rate of 0 (or unset) disables the limit.
        rateLimit:
          perMinute > 0
            ? {
                max: perMinute,
                timeWindow: 60_000,
                hook: 'preHandler',
                keyGenerator: loginAttemptKey,
                errorResponseBuilder: (_request, context) =>
                  Object.assign(new Error(`Too many login attempts, retry in ${context.after}`), { statusCode: context.statusCode }),
              }
            : false,
      },
    },
    async (request, reply) => {
      const user = await authenticateUser(db, request.body.username, request.body.password);
      return reply.code(201).send({ access_token: await app.tokens.issue(user), token_type: 'bearer' });
    },
  );

  app.get('/oauth2/providers', { config: { public: true } }, async () => ({
    items: providers.map((provider) => ({ name: provider.name })),
  }));

  app.get(
    '/oauth2/providers/:provider/authentication',
    { config: { public: true }, schema: { params: OAuthProviderParams } },
    async (request, reply) => {
      const provider = requireOAuthProvider(providers, request.params.provider);
      return reply.redirect(await provider.authorizationUrl(request.query as Record<string, string>, { origin: requestOrigin(request) }), 307);
    },
  );

  app.get(
    '/oauth2/providers/:provider/access-token',
    { config: { public: true }, schema: { params: OAuthProviderParams } },
    async (request) => {
      const provider = requireOAuthProvider(providers, request.params.provider);
      const user = await provider.signIn(request.query as Record<string, string>, { origin: requestOrigin(request) });
      return { access_token: await app.tokens.issue(user), token_type: 'bearer' };
    },
  );
};

/** `<protocol>://<host>` of the request: the default OAuth callback lives on the same origin. */
function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** One bucket per client IP and attempted username: a user elsewhere is not locked out. */
function loginAttemptKey(request: FastifyRequest): string {
  const username = (request.body as { username?: unknown } | undefined)?.username;
  return `${request.ip}\u0000${typeof username === 'string' ? username : ''}`;
}
