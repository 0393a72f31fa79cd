import fp from 'fastify-plugin';
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { UserWorkSlots } from '../../lib/user-work-slots.js';
import { EXPENSIVE_MAX_RUNNING } from '../../lib/work-limits.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's work grows with the dataset or the body (search, metrics and progress, record
     * listings, bulk writes): it runs in its caller's work slots.
     */
    expensive?: boolean;
  }
}

/**
 * Routes that declare `config: { expensive: true }` run in the server's work slots
 * (lib/user-work-slots.ts), shared fairly between users: one user's flood of them waits or is
 * refused with 429 instead of taking the server from everyone else.
 */
const slotRoutesByApp = new WeakMap<FastifyInstance, Set<string>>();

/** `METHOD /url` of every route that runs in the work slots. */
export function workSlotRoutes(app: FastifyInstance): string[] {
  return [...(slotRoutesByApp.get(app) ?? [])];
}

export const userWorkSlotsPlugin = fp(async (app: FastifyInstance) => {
  const slots = new UserWorkSlots(EXPENSIVE_MAX_RUNNING[app.database.dialect]);
  const slotRoutes = new Set<string>();
  slotRoutesByApp.set(app, slotRoutes);
  app.addHook('onRoute', (route) => {
    if (!(route.config as { expensive?: boolean } | undefined)?.expensive) return;
    for (const method of [route.method].flat()) slotRoutes.add(`${method} ${route.url}`);
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function (request, reply) {
      const user = request.user as { id: string } | undefined;
      if (!user) return handler.call(this, request, reply);
      return slots.run(user.id, async () => handler.call(this, request, reply));
    };
  });
}, { name: 'user-work-slots', dependencies: ['database'] });
