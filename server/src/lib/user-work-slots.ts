import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { TooManyRequestsError } from '../errors.js';
import { RecentUsage } from './recent-usage.js';
import { TOO_MANY_ANSWER_DELAY_MS, USER_BUSY_RETRY_AFTER_SECONDS, USER_MAX_ADMITTED_EXPENSIVE, USER_QUEUE_WAIT_MS } from './work-limits.js';

/**
 * Work slots for expensive requests (search, metrics, bulk writes), shared fairly between users so
 * one user's flood cannot take the server from the others. `maxRunning` run at once; a freed slot
 * goes to the waiting user with the fewest requests under way, then the one who has had the least
 * of the server's time lately (the time their requests held a slot, halved every
 * USAGE_HALF_LIFE_MS), so a user who sends one request at a time (the SDK, the web app) goes ahead
 * of a flood. A user may have
 * USER_MAX_ADMITTED_EXPENSIVE running or waiting; past that (answered TOO_MANY_ANSWER_DELAY_MS
 * later), or after USER_QUEUE_WAIT_MS of waiting, the request is refused with 429 and Retry-After.
 *
 * Slots are given out on the next turn of the event loop, never at once: on SQLite a request's
 * queries resolve without yielding, so a request started at once would run to its end before the
 * requests that arrived meanwhile were even parsed, and the first to arrive would always win.
 */

interface UserWork {
  running: number;
  waiting: (() => void)[];
}

/** Milliseconds a user's slot time takes to count half as much. */
const USAGE_HALF_LIFE_MS = 2_000;

export class UserWorkSlots {
  private running = 0;
  private dispatchScheduled = false;
  private readonly workByUser = new Map<string, UserWork>();
  private readonly usage = new RecentUsage(USAGE_HALF_LIFE_MS);

  constructor(private readonly maxRunning: number) {}

  /** Whether the user may have one more request running or waiting now. */
  admits(userId: string): boolean {
    const mine = this.workByUser.get(userId);
    return !mine || mine.running + mine.waiting.length < USER_MAX_ADMITTED_EXPENSIVE;
  }

  async run<T>(userId: string, work: () => Promise<T>): Promise<T> {
    if (!this.admits(userId)) return refuseTooManyOfUser();
    const mine = this.workByUser.get(userId) ?? { running: 0, waiting: [] };
    this.workByUser.set(userId, mine);
    await this.waitForSlot(userId, mine);
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.usage.add(userId, performance.now() - started);
      mine.running -= 1;
      this.running -= 1;
      this.forget(userId, mine);
      this.scheduleDispatch();
    }
  }

  private waitForSlot(userId: string, mine: UserWork): Promise<void> {
    return new Promise((resolve, reject) => {
      const start = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        mine.waiting.splice(mine.waiting.indexOf(start), 1);
        this.forget(userId, mine);
        reject(serverBusy());
      }, USER_QUEUE_WAIT_MS);
      mine.waiting.push(start);
      this.scheduleDispatch();
    });
  }

  private scheduleDispatch() {
    if (this.dispatchScheduled) return;
    this.dispatchScheduled = true;
    setImmediate(() => {
      this.dispatchScheduled = false;
      this.dispatch();
    });
  }

  /**
   * Starts waiting requests while slots are free: first the user with the fewest requests under
   * way, then the one with the least slot time lately. A user with just this one request under way
   * (a reader, an SDK script) may also run beside the `maxRunning`: a search yields between its
   * steps, so such a request goes between the steps of an expensive one instead of after all of it.
   */
  private dispatch() {
    const now = performance.now();
    while (this.running < this.maxRunning + 1) {
      let chosen: UserWork | undefined;
      let best: [number, number] = [Infinity, Infinity];
      for (const [userId, work] of this.workByUser) {
        if (work.waiting.length === 0) continue;
        const rank: [number, number] = [work.running + work.waiting.length, this.usage.of(userId, now)];
        if (rank[0] < best[0] || (rank[0] === best[0] && rank[1] < best[1])) [chosen, best] = [work, rank];
      }
      if (!chosen || (this.running >= this.maxRunning && best[0] > 1)) return;
      this.running += 1;
      chosen.running += 1;
      chosen.waiting.shift()!();
    }
  }

  private forget(userId: string, mine: UserWork) {
    if (mine.running > 0 || mine.waiting.length > 0) return;
    this.workByUser.delete(userId);
    this.usage.forgetIfIdle(userId);
  }
}

/**
 * Refuses a request of a user with USER_MAX_ADMITTED_EXPENSIVE under way, after
 * TOO_MANY_ANSWER_DELAY_MS: a flood that resends each refused request at once, never heeding
 * Retry-After, would otherwise keep the server answering refusals as fast as it can.
 */
export async function refuseTooManyOfUser(): Promise<never> {
  await sleep(TOO_MANY_ANSWER_DELAY_MS);
  throw new TooManyRequestsError(
    `Too many requests under way: at most ${USER_MAX_ADMITTED_EXPENSIVE} searches, metrics or bulk writes per user may run or wait at once. Retry once one has finished.`,
    USER_BUSY_RETRY_AFTER_SECONDS,
  );
}

const serverBusy = () =>
  new TooManyRequestsError(
    `The server is busy: this request waited ${USER_QUEUE_WAIT_MS / 1000} s for its turn among the searches, metrics and bulk writes under way. Retry later.`,
    USER_BUSY_RETRY_AFTER_SECONDS,
  );
