import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { afterEach, describe, expect, it } from 'vitest';
import { BULK_BODY_RETRY_AFTER_SECONDS } from '../../lib/work-limits.js';
import { bodyBudgetPlugin } from './body-budget.js';
import { errorsPlugin } from './errors.js';

/**
 * The bulk body budget on a bare Fastify: each request's user is named by a header, and the bulk
 * route's handler waits for the test to let it finish, so the bodies in flight are the test's to count.
 */
let app: FastifyInstance | undefined;
afterEach(async () => app?.close());

async function budgetApp() {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let started = 0;
  app = Fastify();
  app.decorate('config', { bulkBodyBudget: { serverBytes: 1_000, userBytes: 600 } } as never);
  await app.register(fp(async () => {}, { name: 'user-work-slots' }));
  await app.register(errorsPlugin);
  app.addHook('onRequest', async (request) => {
    (request as unknown as { user: { id: string } }).user = { id: String(request.headers['x-user']) };
  });
  await app.register(bodyBudgetPlugin, { maxWaitMs: 50 });
  app.put('/bulk', { bodyLimit: 600, config: { bulkBody: true } }, async () => {
    started += 1;
    await finished;
    return { written: true };
  });
  await app.ready();
  const send = (user: string, bytes: number) =>
    app!.inject({ method: 'PUT', url: '/bulk', headers: { 'x-user': user, 'content-type': 'application/json' }, payload: `"${'x'.repeat(bytes - 2)}"` });
  /** Sends the bodies, and resolves once they are all in their handler. */
  const hold = async (...bodies: [string, number][]) => {
    const answers = bodies.map(([user, bytes]) => send(user, bytes));
    const deadline = Date.now() + 5_000;
    while (started < bodies.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    return answers;
  };
  return { send, hold, finish };
}

describe('bulk body budget of the routes', () => {
  it("answers a body that found no room in its user's budget with 429, Retry-After and a detail", async () => {
    const { send, hold, finish } = await budgetApp();
    const [held] = await hold(['admin', 500]);
    const refused = await send('admin', 200);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(BULK_BODY_RETRY_AFTER_SECONDS));
    expect(refused.json().detail).toMatch(/bulk write bodies in flight .* per user/);
    finish();
    expect((await held).statusCode).toBe(200);
  });

  it('answers a body past the server-wide budget with 429, whoever sends it', async () => {
    const { send, hold, finish } = await budgetApp();
    const held = await hold(['a', 500], ['b', 400]);
    expect((await send('c', 200)).statusCode).toBe(429);
    finish();
    expect((await Promise.all(held)).map((answer) => answer.statusCode)).toEqual([200, 200]);
  });

  it('gives the bytes back once answered, so the next body is read', async () => {
    const { send, finish } = await budgetApp();
    finish();
    for (let k = 0; k < 5; k += 1) expect((await send('admin', 550)).statusCode).toBe(200);
  });

  it('refuses a body past the route limit with 413 naming the limit and the batch size', async () => {
    const { send } = await budgetApp();
    const refused = await send('admin', 700);
    expect(refused.statusCode).toBe(413);
    expect(refused.json().detail).toContain('batch_size');
  });
});
