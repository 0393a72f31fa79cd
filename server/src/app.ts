import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppConfig } from './config.js';
import { createTokenService } from './auth/tokens.js';
import { RequestValidationError } from './errors.js';
import { findUnacceptableJson } from './lib/json-input.js';
import { redactingLoggerOptions } from './lib/log-redaction.js';
import { routeBodyParser } from './lib/route-body-parser.js';
import { authenticationPlugin } from './plugins/app/authentication.js';
import { databasePlugin } from './plugins/app/database.js';
import { clientErrorHandler, errorsPlugin, frameworkErrorHandler } from './plugins/app/errors.js';
import { jobsPlugin } from './plugins/app/jobs.js';
import { webhookDeliveryPlugin } from './plugins/app/webhook-delivery.js';
import { memoryReleasePlugin } from './plugins/app/memory-release.js';
import { metricsPlugin } from './plugins/app/metrics.js';
import { signInLimitsPlugin } from './plugins/app/sign-in-limits.js';
import { userWorkSlotsPlugin } from './plugins/app/user-work-slots.js';
import { bodyBudgetPlugin } from './plugins/app/body-budget.js';
import { installValidators } from './plugins/app/validation.js';
import { corsPlugin } from './plugins/external/cors.js';
import { securityHeadersPlugin } from './plugins/external/security-headers.js';
import { webPlugin } from './plugins/external/web.js';
import { loadResources } from './resources/load-resources.js';
import { REMOTE_OVERRIDE_SOURCES } from './remotes/remote-registrations.js';
import { createRemoteRegistry } from './remotes/remote-registry.js';
import type { Database } from './storage/dialect.js';
import { databaseUnreadiness } from './storage/readiness.js';
import { ensureSharedSecret } from './bootstrap/shared-secret.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The runtime settings the app was built with (read-only). */
    config: AppConfig;
  }
}

export interface BuildAppOptions {
  config: AppConfig;
  database: Database;
  /** false silences request logs (tests). */
  logger?: boolean;
}

/** Builds the whole server: external plugins, then ours, then every resource's routes. */
export async function buildApp({ config, database, logger = true }: BuildAppOptions): Promise<FastifyInstance> {
  // Before anything signs or seals: instances on one database share the secret.
  await ensureSharedSecret(database, config);
  const app = Fastify({
    logger: logger ? redactingLoggerOptions(config.logLevel) : false,
    bodyLimit: 64 * 1024 * 1024,
    requestTimeout: 120_000,
    ajv: { customOptions: { coerceTypes: false } },
    // request.ip (the sign-in limit's client) comes from X-Forwarded-For only when a configured proxy sent it.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    // Contract §5 bodies also for what fails before routing (bad percent-encoding, oversized URL).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  installValidators(app);
  // First, so every route registered after it (swagger's too) answers errors in the contract's shapes.
  await app.register(errorsPlugin);
  app.decorate('config', config);

  const remotes = config.webDir
    ? createRemoteRegistry({ webDir: config.webDir, registrations: config.remotes, file: config.remotesFile, log: app.log })
    : undefined;
  await app.register(securityHeadersPlugin, {
    frameAncestors: config.frameAncestors,
    connectSrc: [new URL(config.datasetsServerUrl).origin],
    remoteOrigins: remotes ? () => [...remotes.origins(), ...(config.remoteOverrides ? REMOTE_OVERRIDE_SOURCES : [])] : undefined,
  });
  // Before every route, so preflights are answered ahead of authentication and the web fallback.
  await app.register(corsPlugin, { origins: config.corsOrigins });
  await app.register(formbody);
  acceptEmptyJsonBodies(app);
  await app.register(swagger, {
    openapi: { info: { title: 'Scholia API (Argilla v2 compatible)', version: '2.8.0' } },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(databasePlugin, { database });
  // Before the routes, so its timing hook sees every one of them.
  await app.register(metricsPlugin, { token: config.metricsToken });
  await app.register(authenticationPlugin, {
    tokens: createTokenService({ secret: config.jwtSecret, dataDir: config.dataDir, lifetimeSeconds: config.jwtLifetimeSeconds }),
  });

  await app.register(signInLimitsPlugin);
  await app.register(jobsPlugin);
  await app.register(webhookDeliveryPlugin);
  await app.register(memoryReleasePlugin);
  await app.register(userWorkSlotsPlugin);
  await app.register(bodyBudgetPlugin);

  // Liveness: the process answers. Readiness: it can also serve requests (database reachable, migrated).
  app.get('/api/_status', { config: { public: true }, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/api/_ready', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    const problem = await databaseUnreadiness(app.database);
    if (problem) return reply.code(503).send({ detail: problem });
    return { status: 'ready' };
  });
  await loadResources(app);
  await app.register(webPlugin, { webDir: config.webDir, serveSourceMaps: config.serveSourceMaps, remotes, remoteOverrides: config.remoteOverrides });
  return app;
}

/**
 * Clients send `Content-Type: application/json` with no body on body-less calls (publish, ping);
 * treat that as no body instead of a parse error. Routes that need a body still fail validation.
 * Every parsed body is refused (422) when it holds what no route may take (lib/json-input.ts).
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    const ownParser = routeBodyParser(request);
    if (ownParser) {
      ownParser(request, body as string).then((value) => done(null, value), (error: Error) => done(error, undefined));
      return;
    }
    parseJson(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      const issue = findUnacceptableJson(value);
      done(issue ? new RequestValidationError([issue]) : null, value);
    });
  });
}
