import fp from 'fastify-plugin';
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { UserWorkSlots } from '../../lib/user-work-slots.js';
import { EXPENSIVE_MAX_RUNNING } from '../../lib/work-limits.js';

/**
 * The routes whose work grows with the dataset or the body (search, metrics and progress, record
 * listings, bulk writes) run in the server's work slots (lib/user-work-slots.ts), shared fairly
 * between users: one user's flood of them waits or is refused with 429 instead of taking the
 * server from everyone else.
 */
export const EXPENSIVE_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/v1/datasets/:dataset_id/records/search',
  'POST /api/v1/me/datasets/:dataset_id/records/search',
  'GET /api/v1/datasets/:dataset_id/records',
  'GET /api/v1/me/datasets/:dataset_id/metrics',
  'GET /api/v1/datasets/:dataset_id/progress',
  'GET /api/v1/datasets/:dataset_id/users/progress',
  'GET /api/v1/metadata-properties/:metadata_property_id/metrics',
  'POST /api/v1/datasets/:dataset_id/records/bulk',
  'PUT /api/v1/datasets/:dataset_id/records/bulk',
  'DELETE /api/v1/datasets/:dataset_id/records',
  'POST /api/v1/me/responses/bulk',
  'POST /api/v1/datasets/:dataset_id/records/validation/bulk',
  'GET /api/v1/datasets/:dataset_id/agreement',
]);

/** Whether a route (method and URL pattern, as Fastify registers it) runs in its caller's work slots. */
export function isExpensiveRoute(method: string, url: string): boolean {
  return EXPENSIVE_ROUTES.has(`${method} ${url}`);
}

export const userWorkSlotsPlugin = fp(async (app: FastifyInstance) => {
  const slots = new UserWorkSlots(EXPENSIVE_MAX_RUNNING[app.database.dialect]);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => isExpensiveRoute(method, route.url))) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function (request, reply) {
      const user = request.user as { id: string } | undefined;
      if (!user) return handler.call(this, request, reply);
      return slots.run(user.id, async () => handler.call(this, request, reply));
    };
  });
}, { name: 'user-work-slots', dependencies: ['database'] });
