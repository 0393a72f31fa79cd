import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Tables } from '../tables.js';
import { VersionedCopies } from './versioned-copies.js';

// minRecords 0 never asks the database.
const db = undefined as unknown as Kysely<Tables>;
// Fake clocks: the spacing is checked against build times the test sets, whatever the host's load.
beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] }));
afterEach(() => vi.useRealTimers());

/** A copies cache whose builds take `buildMs` and are counted. */
function copiesWith(policy: { buildTimeFactor?: number; quietAfterMs?: number }, buildMs: number, currentVersion = async () => 0) {
  const copies = new VersionedCopies<{ version: number }>({ minRecords: 0, rebuildCooldownMs: 0, ...policy }, 100, () => 1, currentVersion);
  const counter = { builds: 0 };
  const build = (version: number) => async () => {
    counter.builds += 1;
    await new Promise((r) => setTimeout(r, buildMs));
    return { version };
  };
  const settle = async () => {
    await vi.advanceTimersByTimeAsync(buildMs);
    await copies.settled();
  };
  return { copies, counter, build, settle };
}

describe('rebuilding a copy while its dataset keeps changing', () => {
  it('waits at least buildTimeFactor times the last build before the next one', async () => {
    const { copies, counter, build, settle } = copiesWith({ buildTimeFactor: 10 }, 30);
    expect(await copies.ready(db, 'd', 1, '', build(1))).toBeUndefined();
    await settle();
    expect(await copies.ready(db, 'd', 1, '', build(1))).toEqual({ version: 1 });
    // The dataset changed: within ten build times (300 ms) of the last check, no rebuild starts.
    await vi.advanceTimersByTimeAsync(200);
    await copies.ready(db, 'd', 2, '', build(2));
    expect(counter.builds).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    await copies.ready(db, 'd', 2, '', build(2));
    await settle();
    expect(counter.builds).toBe(2);
    expect(await copies.ready(db, 'd', 2, '', build(2))).toEqual({ version: 2 });
  });

  it('rebuilds without the factor wait once the dataset has stopped changing for quietAfterMs', async () => {
    const { copies, counter, build, settle } = copiesWith({ buildTimeFactor: 10, quietAfterMs: 50 }, 30, async () => 2);
    await copies.ready(db, 'd', 1, '', build(1));
    await settle(); // t = 30
    await copies.ready(db, 'd', 2, '', build(2));
    await vi.advanceTimersByTimeAsync(49);
    await copies.ready(db, 'd', 2, '', build(2));
    expect(counter.builds).toBe(1);
    await vi.advanceTimersByTimeAsync(1); // version 2 unchanged for 50 ms, long before 300 ms
    await copies.ready(db, 'd', 2, '', build(2));
    await settle();
    expect(counter.builds).toBe(2);
    expect(await copies.ready(db, 'd', 2, '', build(2))).toEqual({ version: 2 });
  });

  it('rebuilds once the dataset is quiet though no search asks again, reading its version then', async () => {
    let current = 1;
    const { copies, counter, build, settle } = copiesWith({ buildTimeFactor: 10, quietAfterMs: 50 }, 30, async () => current);
    await copies.ready(db, 'd', 1, '', build(1));
    await settle(); // t = 30
    current = 2;
    // A build reads whatever version the records are at when it runs.
    await copies.ready(db, 'd', 2, '', () => build(current)()); // out of date, not due: checked again at t = 80
    current = 3; // a write before then: checked again at t = 130, its version read from the database
    await vi.advanceTimersByTimeAsync(50);
    expect(counter.builds).toBe(1);
    await vi.advanceTimersByTimeAsync(50);
    await settle();
    expect(counter.builds).toBe(2);
    expect(await copies.ready(db, 'd', 3, '', build(3))).toEqual({ version: 3 });
  });

  it('checks nothing in the background for a dataset without a copy', async () => {
    let versionReads = 0;
    const copies = new VersionedCopies<{ version: number }>({ minRecords: 0, rebuildCooldownMs: 100, quietAfterMs: 50 }, 100, () => 1, async () => (versionReads += 1));
    const failing = async (): Promise<{ version: number }> => {
      throw new Error('database closing');
    };
    await copies.ready(db, 'd', 1, '', failing);
    await copies.settled();
    expect(await copies.ready(db, 'd', 1, '', failing)).toBeUndefined(); // within the cooldown
    await vi.advanceTimersByTimeAsync(500);
    expect(versionReads).toBe(0);
  });

  it('keeps the factor wait while the dataset keeps changing, quietAfterMs or not', async () => {
    const { copies, counter, build, settle } = copiesWith({ buildTimeFactor: 10, quietAfterMs: 50 }, 30);
    await copies.ready(db, 'd', 1, '', build(1));
    await settle(); // t = 30
    expect(await copies.ready(db, 'd', 1, '', build(1))).toEqual({ version: 1 }); // used while current
    for (let version = 2; version <= 13; version += 1) {
      await copies.ready(db, 'd', version, '', build(version));
      await vi.advanceTimersByTimeAsync(20);
    }
    expect(counter.builds).toBe(1); // t = 270: every version was new, and 300 ms have not passed
    await vi.advanceTimersByTimeAsync(30);
    await copies.ready(db, 'd', 14, '', build(14));
    await settle();
    expect(counter.builds).toBe(2);
  });

  it('builds no more while the dataset changes once a copy went unused before it changed, until it is quiet', async () => {
    let current = 1;
    const { copies, counter, build, settle } = copiesWith({ buildTimeFactor: 10, quietAfterMs: 50 }, 30, async () => current);
    await copies.ready(db, 'd', 1, '', build(1));
    await settle(); // t = 30; no search gets version 1: the records changed before one asked
    for (let version = 2; version <= 30; version += 1) {
      current = version;
      await copies.ready(db, 'd', version, '', () => build(current)());
      await vi.advanceTimersByTimeAsync(20);
    }
    expect(counter.builds).toBe(1); // t = 610: twice past ten build times, still changing
    // The writes stop at version 30 (first asked for at t = 590); the background check sees it quiet.
    await vi.advanceTimersByTimeAsync(30);
    await settle();
    expect(counter.builds).toBe(2);
    expect(await copies.ready(db, 'd', 30, '', build(30))).toEqual({ version: 30 });
  });

  it('builds nothing for a large dataset seen changing with no copy, until it is quiet', async () => {
    let current = 1;
    let builds = 0;
    const copies = new VersionedCopies<{ version: number }>({ minRecords: 0, rebuildCooldownMs: 150, quietAfterMs: 50 }, 100, () => 1, async () => current);
    const build = async () => {
      builds += 1;
      if (builds === 1) throw new Error('database busy');
      return { version: current };
    };
    await copies.ready(db, 'd', 1, '', build); // the first sighting builds; that build fails
    await copies.settled();
    for (let version = 2; version <= 20; version += 1) {
      current = version;
      await copies.ready(db, 'd', version, '', build);
      await vi.advanceTimersByTimeAsync(20);
    }
    expect(builds).toBe(1); // t = 380: two cooldowns passed, but the records kept changing
    // Version 20, first asked for at t = 360, is quiet from t = 410: built then, though the
    // cooldown of the last check (t = 320) has not passed, as the copy will be used.
    await vi.advanceTimersByTimeAsync(29);
    expect(builds).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await copies.settled();
    expect(builds).toBe(2);
    expect(await copies.ready(db, 'd', 20, '', build)).toEqual({ version: 20 });
  });

  it('without a factor, rebuilds as soon as the cooldown allows', async () => {
    const { copies, counter, build, settle } = copiesWith({}, 30);
    await copies.ready(db, 'd', 1, '', build(1));
    await settle();
    await copies.ready(db, 'd', 2, '', build(2));
    await settle();
    expect(counter.builds).toBe(2);
  });
});
