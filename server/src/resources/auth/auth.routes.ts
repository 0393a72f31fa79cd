import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { OAuthProviderParams, TokenBody } from '@scholia/shared/contract';
import type { AppConfig } from '../../config.js';
import { TooManyRequestsError } from '../../errors.js';
import { OAUTH_STATE_TTL_MS } from '../../oauth/huggingface-provider.js';
import { readOAuthCallback, readSingleValuedQuery, stateCookie } from '../../oauth/oauth-callback.js';
import { authenticateUser } from './auth.service.js';
import { createOAuthProviders, requireOAuthProvider } from './oauth-providers.js';

/**
 * Sign-in (contract §1.2, §1.3): `POST /token` and the OAuth2 routes, all public.
 * Password attempts are limited twice: per client address, whatever the usernames
 * (SCHOLIA_LOGIN_RATE_LIMIT a minute), and per username, whatever the clients (sign-in-backoff.ts,
 * the one backoff a password change also counts in: plugins/app/sign-in-limits.ts).
 * On PostgreSQL both limits count across every instance (shared-sign-in-limits.ts); on SQLite,
 * in the server process.
 */
export const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.database;
  const providers = createOAuthProviders({ config: app.config, db });
  const perMinute = app.config.loginRateLimitPerMinute;
  const { shared, usernameBackoff: backoff } = app.signInLimits;

  await app.register(rateLimit, { global: false, ...(shared ? { store: shared.addressStore(RATE_WINDOW_MS) } : {}) });

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
                timeWindow: RATE_WINDOW_MS,
                keyGenerator: (request) => request.ip,
                errorResponseBuilder: (_request, context) =>
                  new TooManyRequestsError(`Too many sign-in attempts from this address, retry in ${context.after}`, Math.ceil(context.ttl / 1000)),
              }
            : false,
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const waitSeconds = (await backoff?.attempt(username)) ?? 0;
      if (waitSeconds > 0) {
        throw new TooManyRequestsError(`Too many failed sign-ins for this username, retry in ${waitSeconds} s`, waitSeconds);
      }
      const user = await authenticateUser(db, username, password);
      await backoff?.succeeded(username);
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
      const query = readSingleValuedQuery(request.query);
      const { url, state } = await provider.authorizationUrl(query, { origin: callbackOrigin(request, app.config) });
      reply.header('Set-Cookie', stateCookie(state, { ...cookieScope(request, provider.name), maxAgeSeconds: OAUTH_STATE_TTL_MS / 1000 }));
      return reply.redirect(url, 307);
    },
  );

  app.get(
    '/oauth2/providers/:provider/access-token',
    { config: { public: true }, schema: { params: OAuthProviderParams } },
    async (request, reply) => {
      const provider = requireOAuthProvider(providers, request.params.provider);
      const callback = readOAuthCallback(request.query, request.headers.cookie);
      // The state is spent whatever the outcome: the cookie goes with it.
      reply.header('Set-Cookie', stateCookie('', { ...cookieScope(request, provider.name), maxAgeSeconds: 0 }));
      const { user, preferredUsernameTaken } = await provider.signIn(callback, { origin: callbackOrigin(request, app.config) });
      return {
        access_token: await app.tokens.issue(user),
        token_type: 'bearer',
        // Scholia extension: the name given instead of the taken one, for the sign-in page to show.
        ...(preferredUsernameTaken ? { assigned_username: user.username } : {}),
      };
    },
  );
};

/** SCHOLIA_LOGIN_RATE_LIMIT counts the attempts of a minute. */
const RATE_WINDOW_MS = 60_000;

/**
 * The origin of the default OAuth callback URL (when none is configured): as a trusted reverse
 * proxy names it (`X-Forwarded-Host`/`-Proto`, from a peer in SCHOLIA_TRUSTED_PROXIES that also
 * sent `X-Forwarded-For`), else this server on localhost. Never the `Host` header of a direct
 * request: any client sets it, and the provider would send the code wherever it points.
 */
function callbackOrigin(request: FastifyRequest, config: AppConfig): string {
  const viaTrustedProxy = config.trustedProxies.length > 0 && (request.ips?.length ?? 0) > 1;
  if (viaTrustedProxy && request.headers['x-forwarded-host']) return `${request.protocol}://${request.host}`;
  return `http://localhost:${config.port}`;
}

/** The state cookie goes back to this provider's routes only, over HTTPS when the request came so. */
function cookieScope(request: FastifyRequest, provider: string): { path: string; secure: boolean } {
  return { path: `/api/v1/oauth2/providers/${provider}/`, secure: request.protocol === 'https' };
}
