import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTestServer, type TestServer } from '../test-server.js';
import { buildWorld, listApiRoutes, waitForJobs, type MatrixPrincipal, type World } from './harness.js';
import { expectedStatus, ROUTE_EXPECTATIONS, sendRouteRequest } from './route-expectations.js';

/**
 * No response carries an API key but the caller's own, and only the routes about the caller show
 * one: every route the server registers is called (from its own route table, as the authorization
 * matrix does) by the owner, an admin and an annotator, and every answer is searched for keys.
 */
let server: TestServer;
let world: World;
let routes: string[];

/** The routes whose answer is the caller's own key. */
const OWN_KEY_ROUTES = new Set(['GET /api/v1/me', 'POST /api/v1/me/api-key']);
const CALLERS = ['owner', 'adminMember', 'annotatorMember'] as const satisfies readonly MatrixPrincipal[];

beforeAll(async () => {
  server = await startTestServer({ env: { SCHOLIA_HUB_URL: 'http://127.0.0.1:9', SCHOLIA_DATASETS_SERVER_URL: 'http://127.0.0.1:9' } });
  world = await buildWorld(server);
  routes = listApiRoutes(server.app);
});
afterAll(async () => {
  await waitForJobs(server.app.database.db).catch(() => undefined);
  await server?.close();
});

/** Every key currently stored, by user id (rotations in the sweep are undone by the route's `after`). */
async function storedKeys(): Promise<Map<string, string>> {
  const rows = await world.db.selectFrom('users').select(['id', 'api_key']).execute();
  return new Map(rows.map((row) => [row.api_key, row.id]));
}

const callerId = (caller: (typeof CALLERS)[number]) => (caller === 'owner' ? world.ownerId : world.users[caller].id);

/** Paths of `api_key` properties anywhere in a JSON body. */
function apiKeyPaths(value: unknown, at = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => apiKeyPaths(item, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [...(key === 'api_key' ? [`${at}.api_key`] : []), ...apiKeyPaths(inner, `${at}.${key}`)]);
}

describe('API keys in responses', () => {
  it("no route shows a caller another user's key, and only /me routes show the caller's own", async () => {
    const problems: string[] = [];
    let usersSeen = 0;
    // A route without an expectation fails the authorization matrix's route-table test already.
    const swept = routes.filter((route) => ROUTE_EXPECTATIONS[route]);
    expect(swept).toContain('GET /api/v1/workspaces/:workspace_id/users');
    for (const route of swept) {
      const expectation = ROUTE_EXPECTATIONS[route];
      const method = route.split(' ')[0];
      const success = Array.isArray(expectation.success) ? expectation.success[0] : expectation.success;
      for (const caller of CALLERS) {
        const allowed = expectedStatus(expectation.policy, caller, success) < 400;
        const request = await expectation.request(world, allowed);
        const res = await sendRouteRequest(world.clients[caller], method, request);
        const text = JSON.stringify(res.body ?? '');
        const keys = await storedKeys();
        await request.after?.();
        if (text.includes('"username"')) usersSeen += 1;
        for (const [key, owner] of keys) {
          if (!text.includes(key)) continue;
          if (owner !== callerId(caller)) problems.push(`${route} as ${caller}: shows the key of user ${owner}`);
          else if (!OWN_KEY_ROUTES.has(route)) problems.push(`${route} as ${caller}: shows the caller's own key`);
        }
        if (!OWN_KEY_ROUTES.has(route) && apiKeyPaths(res.body).length > 0) problems.push(`${route} as ${caller}: api_key at ${apiKeyPaths(res.body).join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
    // The sweep did reach answers that carry users (lists, creations, workspace members).
    expect(usersSeen).toBeGreaterThan(5);
  }, 120_000);

  it('GET /me shows the caller its own key, whoever the caller is', async () => {
    for (const caller of CALLERS) {
      const res = await world.clients[caller].get('/me');
      expect(res.body.api_key).toBe(caller === 'owner' ? OWNER.apiKey : world.users[caller].apiKey);
    }
  });
});
