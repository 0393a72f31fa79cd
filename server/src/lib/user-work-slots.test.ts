import { describe, expect, it } from 'vitest';
import { TooManyRequestsError } from '../errors.js';
import { UserWorkSlots } from './user-work-slots.js';
import { USER_MAX_ADMITTED_EXPENSIVE } from './work-limits.js';

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
};

describe('work slots shared between users', () => {
  it('runs a bounded number at once and refuses a user past its admitted bound with 429 and Retry-After', async () => {
    const slots = new UserWorkSlots(2);
    const release = gate();
    let running = 0;
    let peak = 0;
    const work = async () => {
      running += 1;
      peak = Math.max(peak, running);
      await release.opened;
      running -= 1;
      return 'done';
    };
    const outcomes = Array.from({ length: USER_MAX_ADMITTED_EXPENSIVE + 2 }, () => slots.run('flooder', work).catch((error: unknown) => error));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(peak).toBe(2);
    release.open();
    const settled = await Promise.all(outcomes);
    expect(settled.filter((o) => o === 'done')).toHaveLength(USER_MAX_ADMITTED_EXPENSIVE);
    const refused = settled.filter((o): o is TooManyRequestsError => o instanceof TooManyRequestsError);
    expect(refused).toHaveLength(2);
    expect(refused[0].retryAfterSeconds).toBeGreaterThan(0);
    expect(refused[0].message).toContain(`at most ${USER_MAX_ADMITTED_EXPENSIVE}`);
    expect(peak).toBe(2);
  });

  it("gives a freed slot to the user who had the least of the server's time lately, ahead of a flood's queue", async () => {
    const slots = new UserWorkSlots(1);
    const order: string[] = [];
    const first = gate();
    const held = slots.run('flooder', async () => first.opened);
    const queued = Array.from({ length: 3 }, (_, i) => slots.run('flooder', async () => order.push(`flooder ${i}`)));
    const polite = slots.run('polite', async () => order.push('polite'));
    first.open();
    await Promise.all([held, ...queued, polite]);
    expect(order[0]).toBe('polite');
  });

  it('lets a user with nothing else under way run beside a flood that holds every slot', async () => {
    const slots = new UserWorkSlots(1);
    const release = gate();
    const flood = Array.from({ length: 3 }, () => slots.run('flooder', async () => release.opened));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(slots.run('reader', async () => 'read')).resolves.toBe('read');
    release.open();
    await Promise.all(flood);
  });

  it('frees the slot of a request that failed', async () => {
    const slots = new UserWorkSlots(1);
    for (let i = 0; i < USER_MAX_ADMITTED_EXPENSIVE + 3; i++) {
      await expect(slots.run('failing', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    }
    await expect(slots.run('failing', async () => 'ok')).resolves.toBe('ok');
  });
});
