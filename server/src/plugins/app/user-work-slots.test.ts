import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { afterEach, describe, expect, it } from 'vitest';
import type { DialectName } from '../../storage/dialect.js';
import { EXPENSIVE_MAX_RUNNING, TOO_MANY_ANSWER_DELAY_MS, USER_MAX_ADMITTED_EXPENSIVE } from '../../lib/work-limits.js';
import { errorsPlugin } from './errors.js';
import { userWorkSlotsPlugin } from './user-work-slots.js';

/**
 * The work slots on a bare Fastify: each request's user is named by a header, and every route's
 * handler waits for the test to let it finish, so the requests under way are the test's to count.
 */
let app: FastifyInstance | undefined;
afterEach(async () => app?.close());

async function slotApp(dialect: DialectName) {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let started = 0;
  app = Fastify();
  await app.register(fp(async (instance) => void instance.decorate('database', { dialect } as never), { name: 'database' }));
  await app.register(errorsPlugin);
  app.addHook('onRequest', async (request) => {
    (request as unknown as { user: { id: string } }).user = { id: String(request.headers['x-user']) };
  });
  await app.register(userWorkSlotsPlugin);
  for (const kind of ['read', 'write'] as const) {
    app.post(`/${kind}`, { config: { expensive: kind } }, async () => {
      started += 1;
      await finished;
      return { kind };
    });
  }
  await app.ready();
  const send = (kind: 'read' | 'write', user: string, payload: string = '{}') =>
    app!.inject({ method: 'POST', url: `/${kind}`, headers: { 'x-user': user, 'content-type': 'application/json' }, payload });
  return { send, finish, started: () => started };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
/** Waits (up to 2 s: a loaded machine) until `count()` reaches `at`, then a moment more for any that should not have started. */
async function startedAtLeast(count: () => number, at: number): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (count() < at && Date.now() < deadline) await settle();
  await settle();
}

describe('work slots of the routes', () => {
  it('refuses a user past their bound before reading the body, with the 429 answered after the delay', async () => {
    const { send, finish } = await slotApp('sqlite');
    const admitted = Array.from({ length: USER_MAX_ADMITTED_EXPENSIVE }, () => send('read', 'flooder'));
    await settle();
    const sent = performance.now();
    // Not JSON at all: a request that got as far as parsing would be answered 400.
    const refused = await send('read', 'flooder', '{not json');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(performance.now() - sent).toBeGreaterThanOrEqual(TOO_MANY_ANSWER_DELAY_MS - 20);
    finish();
    expect((await Promise.all(admitted)).map((answer) => answer.statusCode)).toEqual(Array(USER_MAX_ADMITTED_EXPENSIVE).fill(200));
  });

  it('on PostgreSQL runs bulk writes in slots of their own, beside reads that hold all of theirs', async () => {
    const { send, finish, started } = await slotApp('postgres');
    const limits = EXPENSIVE_MAX_RUNNING.postgres;
    // Two users' reads, more than one each (so neither runs beside the bound): every read slot is taken and more reads wait.
    const reads = Array.from({ length: limits.read + 3 }, (_, i) => send('read', `reader ${i % 2}`));
    await startedAtLeast(started, limits.read);
    expect(started()).toBe(limits.read);
    const writes = Array.from({ length: limits.write }, (_, i) => send('write', `writer ${i}`));
    await startedAtLeast(started, limits.read + limits.write);
    expect(started()).toBe(limits.read + limits.write);
    finish();
    await Promise.all([...reads, ...writes]);
  });

  it('on SQLite makes reads and bulk writes share their slots', async () => {
    const { send, finish, started } = await slotApp('sqlite');
    const reads = Array.from({ length: 4 }, (_, i) => send('read', `reader ${i % 2}`));
    await startedAtLeast(started, EXPENSIVE_MAX_RUNNING.sqlite.read);
    const writes = Array.from({ length: 2 }, () => send('write', 'writer'));
    await settle();
    expect(started()).toBe(EXPENSIVE_MAX_RUNNING.sqlite.read);
    finish();
    await Promise.all([...reads, ...writes]);
  });
});
