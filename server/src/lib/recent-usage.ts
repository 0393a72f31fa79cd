import { performance } from 'node:perf_hooks';

/**
 * How much of a shared resource (work slots, the search reader thread) each user has had lately:
 * every millisecond of use counts half as much after `halfLifeMs`. Schedulers give the next turn
 * to the user with the least, so one user's single request goes ahead of another user's flood.
 */
export class RecentUsage {
  private readonly byUser = new Map<string, { ms: number; at: number }>();

  constructor(private readonly halfLifeMs: number) {}

  /** The user's use lately, in ms. */
  of(userId: string, now = performance.now()): number {
    const usage = this.byUser.get(userId);
    return usage ? usage.ms * 0.5 ** ((now - usage.at) / this.halfLifeMs) : 0;
  }

  add(userId: string, ms: number, now = performance.now()): void {
    this.byUser.set(userId, { ms: this.of(userId, now) + ms, at: now });
  }

  /** Forgets the user once their use no longer orders anyone (under 1 ms). */
  forgetIfIdle(userId: string, now = performance.now()): void {
    if (this.of(userId, now) < 1) this.byUser.delete(userId);
  }

  /** Forgets every user whose use no longer orders anyone. */
  forgetIdle(now = performance.now()): void {
    for (const userId of this.byUser.keys()) this.forgetIfIdle(userId, now);
  }

  get size(): number {
    return this.byUser.size;
  }
}
