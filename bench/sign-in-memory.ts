/**
 * Sign-in memory benchmark: whether what anyone can send to `POST /api/v1/token` leaves memory
 * behind. Starts the real server in a child process (compiled, as `npm start` runs it; SQLite in a
 * temp dir) and prints its RSS:
 *  - before, after BENCH_HUGE_SIGN_INS (1,000) sign-ins with distinct 1 MiB usernames
 *    (BENCH_IN_FLIGHT, 4, at once), and again after BENCH_REST_SECONDS (5) of rest: such names are
 *    refused with 422 before any work, so nothing of them is kept;
 *  - after BENCH_LONG_SIGN_INS (1,000) sign-ins with distinct 200-character usernames, the longest
 *    accepted, each remembered by the per-username backoff (its table is bounded in names and bytes).
 *
 * Run from the repo root: `npx tsx bench/sign-in-memory.ts`.
 */
import { startServerProcess } from './lib/server-process.js';

const HUGE_SIGN_INS = Number(process.env.BENCH_HUGE_SIGN_INS ?? 1_000);
const LONG_SIGN_INS = Number(process.env.BENCH_LONG_SIGN_INS ?? 1_000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 4);
const REST_SECONDS = Number(process.env.BENCH_REST_SECONDS ?? 5);
const MIB = 1024 * 1024;

const print = (name: string, value: string | number) => console.log(`${name}: ${value}`);

/** `count` sign-ins, `IN_FLIGHT` at a time, the i-th with the username `nameOf(i)`; the answers' statuses counted. */
async function signIns(base: string, count: number, nameOf: (i: number) => string): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < count; i = next++) {
      const res = await fetch(`${base}/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `username=${nameOf(i)}&password=not-the-password`,
      });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return statuses;
}

const rest = () => new Promise((resolve) => setTimeout(resolve, REST_SECONDS * 1000));

async function main() {
  const server = await startServerProcess({ env: { SCHOLIA_LOGIN_BACKOFF_AFTER_FAILURES: '5' } });
  const rss = () => server.memory().rssMiB.toFixed(0);
  try {
    // Warm the route (first sign-in hashes the dummy password) before the first reading.
    await signIns(server.base, 4, (i) => `warm-up-${i}`);
    await rest();
    print('rss_before_mib', rss());

    const huge = 'u'.repeat(MIB - 8);
    const started = Date.now();
    const hugeStatuses = await signIns(server.base, HUGE_SIGN_INS, (i) => `${String(i).padStart(7, '0')}${huge}`);
    print('huge_sign_ins', `${HUGE_SIGN_INS} × 1 MiB usernames in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    print('huge_sign_in_statuses', JSON.stringify(hugeStatuses));
    print('rss_after_huge_mib', rss());
    await rest();
    print('rss_after_huge_rest_mib', rss());
    print('rss_peak_mib', server.memory().hwmMiB.toFixed(0));

    const longStatuses = await signIns(server.base, LONG_SIGN_INS, (i) => `${String(i).padStart(7, '0')}${'n'.repeat(193)}`);
    print('long_sign_ins', `${LONG_SIGN_INS} × 200-character usernames`);
    print('long_sign_in_statuses', JSON.stringify(longStatuses));
    await rest();
    print('rss_after_long_rest_mib', rss());
  } finally {
    await server.stop();
  }
}

await main();
