import fp from 'fastify-plugin';
import type { FastifyInstance, onRequestHookHandler, RouteHandlerMethod } from 'fastify';
import { refuseTooManyOfUser, UserWorkSlots } from '../../lib/user-work-slots.js';
import { EXPENSIVE_MAX_RUNNING, type ExpensiveKind } from '../../lib/work-limits.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's work grows with the dataset or the body: it runs in its caller's work slots of
     * its kind, `read` (search, metrics and progress, record listings, exports) or `write` (bulk writes).
     */
    expensive?: ExpensiveKind;
  }
}

/**
 * Routes that declare `config: { expensive: kind }` run in the server's work slots
 * (lib/user-work-slots.ts), shared fairly between users: one user's flood of them waits or is
 * refused with 429 instead of taking the server from everyone else.
 */
const slotRoutesByApp = new WeakMap<FastifyInstance, Record<ExpensiveKind, Set<string>>>();

/** `METHOD /url` of every route that runs in the work slots, by kind. */
export function workSlotRoutes(app: FastifyInstance): Record<ExpensiveKind, string[]> {
  const routes = slotRoutesByApp.get(app);
  return { read: [...(routes?.read ?? [])], write: [...(routes?.write ?? [])] };
}

export const userWorkSlotsPlugin = fp(async (app: FastifyInstance) => {
  const limits = EXPENSIVE_MAX_RUNNING[app.database.dialect];
  const readSlots = new UserWorkSlots(limits.read);
  // SQLite runs reads and writes on the one event loop: there they share their slots.
  const slots = { read: readSlots, write: 'write' in limits ? new UserWorkSlots(limits.write) : readSlots };
  const slotRoutes = { read: new Set<string>(), write: new Set<string>() };
  slotRoutesByApp.set(app, slotRoutes);
  app.addHook('onRoute', (route) => {
    const kind = (route.config as { expensive?: ExpensiveKind } | undefined)?.expensive;
    if (!kind) return;
    for (const method of [route.method].flat()) slotRoutes[kind].add(`${method} ${route.url}`);
    // A user past their bound is refused before the body is read and parsed (a flood's bodies are its largest).
    const admitted: onRequestHookHandler = async (request) => {
      const user = request.user as { id: string } | undefined;
      if (user && !slots[kind].admits(user.id)) await refuseTooManyOfUser();
    };
    route.onRequest = [route.onRequest ?? []].flat().concat(admitted);
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function (request, reply) {
      const user = request.user as { id: string } | undefined;
      if (!user) return handler.call(this, request, reply);
      return slots[kind].run(user.id, async () => handler.call(this, request, reply));
    };
  });
}, { name: 'user-work-slots', dependencies: ['database'] });
