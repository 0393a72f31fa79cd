import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers (CSP with configurable frame-ancestors for embedding hosts, nosniff,
 * referrer policy, ...). The helmet middleware is built once here: @fastify/helmet rebuilds it
 * on every request, which cost about 7% of a response submit.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: { frameAncestors: string[]; connectSrc?: string[]; remoteOrigins?: () => string[] }) => {
    // Remotes registered on other origins (remote-registry.ts): their entries, chunks, styles and
    // manifests. Read per response, so a registration changed at run time is allowed at once.
    const remoteOrigins = () => (options.remoteOrigins?.() ?? []).join(' ');
    // X-Frame-Options can say only "this origin": with other frame parents listed it would refuse
    // them in browsers that read it before (or without) CSP frame-ancestors.
    const framedBySelfOnly = options.frameAncestors.every((source) => source === "'self'" || source === "'none'");
    const middleware = helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", remoteOrigins],
          styleSrc: ["'self'", "'unsafe-inline'", remoteOrigins],
          fontSrc: ["'self'", remoteOrigins],
          imgSrc: ["'self'", 'data:', 'https:', 'http:'],
          // Plus the dataset viewer: the hub import screens call it from the browser (product spec §7).
          connectSrc: ["'self'", ...(options.connectSrc ?? []), remoteOrigins],
          frameSrc: ["'self'"],
          frameAncestors: options.frameAncestors,
          // Served over plain http on localhost and intranets: never rewrite subresources to https.
          upgradeInsecureRequests: null,
        },
      },
      xFrameOptions: framedBySelfOnly ? { action: options.frameAncestors.includes("'self'") ? 'sameorigin' : 'deny' } : false,
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    });
    app.addHook('onRequest', (request, reply, done) => {
      middleware(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
    });
  },
  { name: 'security-headers' },
);
