import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { createSharedSignInLimits } from '../../auth/shared-sign-in-limits.js';

/**
 * Sign-in limits behind a load balancer: two server processes on one PostgreSQL database count a
 * client's and a username's attempts together. (On SQLite the limits are per process:
 * sign-in-limits.test.ts.)
 */
const onPostgres = process.env.SCHOLIA_TEST_DATABASE_URL?.startsWith('postgres') ?? false;

async function signIn(server: TestServer, username: string, password: string) {
  const res = await fetch(`${server.url}/api/v1/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }).toString(),
  });
  return { status: res.status, body: (await res.json()) as { detail?: unknown } };
}

/** Two instances on one database, both with `env`. */
async function startPair(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-sign-in-pair-'));
  const first = await startTestServer({ env, dataDir });
  const second = await startTestServer({ env, dataDir });
  return {
    instances: [first, second],
    async close() {
      await first.close();
      await second.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe.runIf(onPostgres)('sign-in limits on PostgreSQL with two instances', () => {
  let pair: Awaited<ReturnType<typeof startPair>> | undefined;
  afterAll(() => pair?.close());

  it('count one client address on every instance', async () => {
    pair = await startPair({ SCHOLIA_LOGIN_RATE_LIMIT: '4', SCHOLIA_LOGIN_BACKOFF_AFTER_FAILURES: '0' });
    const [first, second] = pair.instances;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await signIn(i % 2 ? second : first, `address-${i}`, 'guess')).status);
    expect(statuses).toEqual([401, 401, 401, 401]);
    // Each instance has seen two attempts: the fifth is over the limit of four all the same.
    const over = await signIn(first, 'address-4', 'guess');
    expect(over.status).toBe(429);
    expect(over.body.detail).toMatch(/from this address/);
    expect((await signIn(second, 'address-5', 'guess')).status).toBe(429);
    await pair.close();
    pair = undefined;
  });

  it('back off one username’s failures counted on every instance', async () => {
    pair = await startPair({ SCHOLIA_LOGIN_RATE_LIMIT: '1000', SCHOLIA_LOGIN_BACKOFF_AFTER_FAILURES: '5' });
    const [first, second] = pair.instances;
    // Alternating, each instance sees at most four of the eight: never its own five.
    const answers: Array<{ status: number; body: { detail?: unknown } }> = [];
    for (let i = 0; i < 8 && answers.at(-1)?.status !== 429; i += 1) answers.push(await signIn(i % 2 ? second : first, 'guessed-name', `wrong-${i}`));
    const refused = answers.at(-1)!;
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/for this username/);
    // Five free failures; the waits then double from 1 s, so a slow machine may let one or two more through.
    const failed = answers.filter((answer) => answer.status === 401).length;
    expect(failed).toBeGreaterThanOrEqual(5);
    expect(failed).toBeLessThanOrEqual(7);
    await pair.close();
    pair = undefined;
  });
});

describe.runIf(onPostgres)('the shared sign-in limits table', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('holds hashes, never the username or address, and deletes rows once expired', async () => {
    const { db } = server.app.database;
    let clock = Date.parse('2026-11-28T08:00:00Z');
    const limits = createSharedSignInLimits({ db, now: () => clock });
    const backoff = limits.usernameBackoff({ freeFailures: 1, maxDelaySeconds: 60, forgetAfterSeconds: 15 * 60 });
    expect(await backoff.attempt('alice@example.org')).toBe(0);
    expect(await backoff.attempt('alice@example.org')).toBe(1);
    const Store = limits.addressStore(60_000);
    const store = new Store({});
    const counted = await new Promise((resolve, reject) => store.incr('203.0.113.7', (error, result) => (error ? reject(error) : resolve(result))));
    expect(counted).toEqual({ current: 1, ttl: 60_000 });

    const rows = await db.selectFrom('sign_in_limits').selectAll().execute();
    const keys = rows.map((row) => row.key).join(' ');
    expect(keys).not.toContain('alice');
    expect(keys).not.toContain('203.0.113.7');
    expect(rows).toHaveLength(2);

    // Past both the address window and the name's forget time, the next attempt sweeps them away.
    clock += 16 * 60_000;
    expect(await backoff.attempt('bob')).toBe(0);
    const left = await db.selectFrom('sign_in_limits').select('key').execute();
    expect(left).toHaveLength(1);
    expect(await backoff.attempt('alice@example.org')).toBe(0);
  });
});
