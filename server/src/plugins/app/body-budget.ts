import fp from 'fastify-plugin';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { BodyBudget } from '../../lib/body-budget.js';
import { BULK_BODY_QUEUE_WAIT_MS, BULK_BODY_RETRY_AFTER_SECONDS } from '../../lib/work-limits.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's body is a bulk write: it is read only once its size fits the bulk body budget
     * (lib/body-budget.ts), kept until the answer has been sent. The route sets its `bodyLimit`.
     */
    bulkBody?: boolean;
  }
  interface FastifyInstance {
    /** The budget the bulk bodies in flight share. */
    bulkBodyBudget: BodyBudget;
  }
}

/**
 * Routes that declare `config: { bulkBody: true }` share the server's budget for bulk bodies in
 * flight (AppConfig.bulkBodyBudget). A body's bytes are reserved before it is read: by its
 * Content-Length, or the route's whole body limit when it is sent without one.
 */
export const bodyBudgetPlugin = fp(async (app: FastifyInstance, options: { maxWaitMs?: number }) => {
  const budget = new BodyBudget({
    ...app.config.bulkBodyBudget,
    maxWaitMs: options.maxWaitMs ?? BULK_BODY_QUEUE_WAIT_MS,
    retryAfterSeconds: BULK_BODY_RETRY_AFTER_SECONDS,
  });
  app.decorate('bulkBodyBudget', budget);
  app.addHook('onRoute', (route) => {
    if (!(route.config as { bulkBody?: boolean } | undefined)?.bulkBody) return;
    const bodyLimit = route.bodyLimit ?? app.initialConfig.bodyLimit!;
    const reserve: onRequestHookHandler = async (request, reply) => {
      const user = request.user as { id: string } | undefined;
      if (!user) return;
      const declared = Number(request.headers['content-length']);
      // A body declared past the limit is refused (413) before it is read: nothing to reserve.
      if (declared > bodyLimit) return;
      // A client that goes away while its body waits leaves the queue at once.
      const abandoned = new AbortController();
      const onClose = () => abandoned.abort(new Error('the client went away'));
      if (request.raw.destroyed) onClose();
      else request.raw.once('close', onClose);
      const release = await budget.reserve(user.id, Number.isFinite(declared) && declared >= 0 ? declared : bodyLimit, abandoned.signal).finally(() =>
        request.raw.off('close', onClose),
      );
      // 'close' comes once the answer is sent, and also when the client goes away first.
      if (reply.raw.closed) release();
      else reply.raw.once('close', release);
    };
    route.onRequest = [route.onRequest ?? []].flat().concat(reserve);
  });
  // After the work slots' plugin, so a user past their count of requests is refused before anything is reserved.
}, { name: 'body-budget', dependencies: ['user-work-slots'] });
