import { describe, expect, it } from 'vitest';
import { TooManyRequestsError } from '../errors.js';
import { BodyBudget } from './body-budget.js';

const budget = (maxWaitMs = 60_000) => new BodyBudget({ serverBytes: 1_000, userBytes: 600, maxWaitMs, retryAfterSeconds: 5 });

/** Whether the promise has settled after the pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true), () => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('bulk body budget', () => {
  it("holds a user's body past their share until their earlier one is given back, while other users go ahead", async () => {
    const bodies = budget();
    const first = await bodies.reserve('admin', 500);
    const second = bodies.reserve('admin', 500);
    expect(await settled(second)).toBe(false);
    // Another user fits beside it: the first user's queue does not hold them back.
    const other = await bodies.reserve('other', 400);
    expect(bodies.reservedBytes).toBe(900);
    first();
    expect(await settled(second)).toBe(true);
    expect(bodies.reservedBytes).toBe(900);
    other();
    (await second)();
    expect(bodies.reservedBytes).toBe(0);
  });

  it('holds any body past the server-wide budget, in order of arrival', async () => {
    const bodies = budget();
    const held = [await bodies.reserve('a', 600), await bodies.reserve('b', 300)];
    const order: string[] = [];
    const large = bodies.reserve('c', 500).then((release) => (order.push('large'), release));
    // Fits now, but came after the large body: it does not pass it.
    const small = bodies.reserve('d', 100).then((release) => (order.push('small'), release));
    expect(await settled(large)).toBe(false);
    expect(await settled(small)).toBe(false);
    held[0]();
    await Promise.all([large, small]);
    expect(order).toEqual(['large', 'small']);
    expect(bodies.reservedBytes).toBe(900);
  });

  it('refuses a body that waited its longest with 429, Retry-After and a detail naming the budget', async () => {
    const bodies = budget(30);
    const held = await bodies.reserve('admin', 600);
    const refused = await bodies.reserve('admin', 100).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect((refused as TooManyRequestsError).retryAfterSeconds).toBe(5);
    expect((refused as TooManyRequestsError).message).toContain('per user');
    // The refused body reserved nothing.
    held();
    expect(bodies.reservedBytes).toBe(0);
  });

  it('takes a body whose client went away out of the queue, letting those behind it go', async () => {
    const bodies = budget();
    const held = await bodies.reserve('a', 600);
    const gone = new AbortController();
    const abandoned = bodies.reserve('b', 500, gone.signal);
    const behind = bodies.reserve('c', 400);
    expect(bodies.waitingCount).toBe(2);
    gone.abort(new Error('the client went away'));
    await expect(abandoned).rejects.toThrow('the client went away');
    // The abandoned body held the server-wide place the smaller one behind it now takes.
    expect(await settled(behind)).toBe(true);
    expect(bodies.waitingCount).toBe(0);
    expect(bodies.reservedBytes).toBe(1_000);
    held();
    (await behind)();
  });

  it('gives bytes back once however often release is called', async () => {
    const bodies = budget();
    const a = await bodies.reserve('a', 300);
    const b = await bodies.reserve('b', 300);
    a();
    a();
    expect(bodies.reservedBytes).toBe(300);
    b();
    expect(bodies.reservedBytes).toBe(0);
  });
});
