import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { OAuthProviderParams, TokenBody } from '@scholia/shared/contract';
import { createSignInBackoff } from '../../auth/sign-in-backoff.js';
import { TooManyRequestsError } from '../../errors.js';
import { authenticateUser } from './auth.service.js';
import { createOAuthProviders, requireOAuthProvider } from './oauth-providers.js';

/**
 * Sign-in (contract §1.2, §1.3): `POST /token` and the OAuth2 routes, all public.
 * Password attempts are limited twice: per client address, whatever the usernames
 * (SCHOLIA_LOGIN_RATE_LIMIT a minute), and per username, whatever the clients (sign-in-backoff.ts).
 */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.database;
  const providers = createOAuthProviders({ config: app.config, db });
  const perMinute = app.config.loginRateLimitPerMinute;
  const backoff =
    app.config.loginBackoffAfterFailures > 0
      ? createSignInBackoff({ freeFailures: app.config.loginBackoffAfterFailures, ...USERNAME_BACKOFF })
      : undefined;

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
        // Keyed by client address alone (behind SCHOLIA_TRUSTED_PROXIES, the forwarded one); 0 disables it.
        rateLimit:
          perMinute > 0
            ? {
                max: perMinute,
                timeWindow: 60_000,
                keyGenerator: (request) => request.ip,
                errorResponseBuilder: (_request, context) =>
                  new TooManyRequestsError(`Too many sign-in attempts from this address, retry in ${context.after}`, Math.ceil(context.ttl / 1000)),
              }
            : false,
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const waitSeconds = backoff?.attempt(username) ?? 0;
      if (waitSeconds > 0) {
        throw new TooManyRequestsError(`Too many failed sign-ins for this username, retry in ${waitSeconds} s`, waitSeconds);
      }
      const user = await authenticateUser(db, username, password);
      backoff?.succeeded(username);
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

/**
 * A guessing rate of at most one try a minute per account; a name is forgotten 15 minutes after its
 * last try. 16 MiB holds about 30,000 names of the longest kind (200 characters), more of shorter ones.
 */
const USERNAME_BACKOFF = { maxDelaySeconds: 60, forgetAfterSeconds: 15 * 60, maxNames: 100_000, maxBytes: 16 * 1024 * 1024 };

/** `<protocol>://<host>` of the request: the default OAuth callback lives on the same origin. */
function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
