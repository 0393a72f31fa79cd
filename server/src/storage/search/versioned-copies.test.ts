import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Tables } from '../tables.js';
import { VersionedCopies } from './versioned-copies.js';

// minRecords 0 never asks the database.
const db = undefined as unknown as Kysely<Tables>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('rebuilding a copy while its dataset keeps changing', () => {
  it('waits at least buildTimeFactor times the last build before the next one', async () => {
    const copies = new VersionedCopies<{ version: number }>({ minRecords: 0, rebuildCooldownMs: 0, buildTimeFactor: 10 }, 100, () => 1);
    let builds = 0;
    const build = (version: number) => async () => {
      builds += 1;
      await sleep(30);
      return { version };
    };
    expect(await copies.ready(db, 'd', 1, '', build(1))).toBeUndefined();
    await copies.settled();
    expect(await copies.ready(db, 'd', 1, '', build(1))).toEqual({ version: 1 });
    // The dataset changed: within ten build times (~300 ms) of the last check, no rebuild starts.
    await copies.ready(db, 'd', 2, '', build(2));
    await copies.settled();
    expect(builds).toBe(1);
    await sleep(400);
    await copies.ready(db, 'd', 2, '', build(2));
    await copies.settled();
    expect(builds).toBe(2);
    expect(await copies.ready(db, 'd', 2, '', build(2))).toEqual({ version: 2 });
  });

  it('without a factor, rebuilds as soon as the cooldown allows', async () => {
    const copies = new VersionedCopies<{ version: number }>({ minRecords: 0, rebuildCooldownMs: 0 }, 100, () => 1);
    let builds = 0;
    const build = (version: number) => async () => {
      builds += 1;
      await sleep(30);
      return { version };
    };
    await copies.ready(db, 'd', 1, '', build(1));
    await copies.settled();
    await copies.ready(db, 'd', 2, '', build(2));
    await copies.settled();
    expect(builds).toBe(2);
  });
});
