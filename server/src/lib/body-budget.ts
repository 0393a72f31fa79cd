import { TooManyRequestsError } from '../errors.js';

/**
 * A byte budget for request bodies in flight, server-wide and per user. A request reserves its
 * body's size before the body is read and gives it back once its answer is sent, so the bodies
 * held at once (and everything built from them) stay bounded however many arrive together. A
 * body that does not fit waits, in order of arrival, for at most `maxWaitMs`, then is refused
 * with 429 and Retry-After; until then its bytes stay in the client's socket, not in the server.
 *
 * A waiter that only its own user's budget holds back is passed over, so one user's queue does not
 * hold back the others; a waiter the server-wide budget holds back keeps its place, so a large
 * body is not starved by smaller ones arriving after it.
 */
export interface BodyBudgetLimits {
  /** Bytes of all bodies in flight. */
  serverBytes: number;
  /** Bytes of one user's bodies in flight; at most `serverBytes`. */
  userBytes: number;
  maxWaitMs: number;
  retryAfterSeconds: number;
}

interface Waiter {
  userId: string;
  bytes: number;
  grant: () => void;
}

export class BodyBudget {
  private inFlight = 0;
  private readonly inFlightByUser = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: BodyBudgetLimits) {}

  /** Bytes reserved now, over all users. */
  get reservedBytes(): number {
    return this.inFlight;
  }

  /** Bodies waiting for room now. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /**
   * Reserves `bytes` for the user, waiting for room if needed; resolves with the function that
   * gives them back (idempotent). `bytes` past the user's budget is reserved as the whole budget:
   * the caller's own size limit refuses such a body anyway. A wait ends early, rejected with
   * `abandoned`'s reason, when `abandoned` aborts (the client went away).
   */
  async reserve(userId: string, bytes: number, abandoned?: AbortSignal): Promise<() => void> {
    const size = Math.min(bytes, this.limits.userBytes);
    if (abandoned?.aborted) throw abandoned.reason;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { userId, bytes: size, grant: () => {} };
      const leave = (error: unknown) => {
        clearTimeout(timer);
        abandoned?.removeEventListener('abort', onAbandoned);
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        // Leaving may let those queued behind it go.
        this.grantWaiting();
        reject(error);
      };
      const onAbandoned = () => leave(abandoned!.reason);
      const timer = setTimeout(() => leave(this.refusal()), this.limits.maxWaitMs);
      waiter.grant = () => {
        clearTimeout(timer);
        abandoned?.removeEventListener('abort', onAbandoned);
        resolve(this.take(userId, size));
      };
      abandoned?.addEventListener('abort', onAbandoned, { once: true });
      this.waiting.push(waiter);
      this.grantWaiting();
    });
  }

  private fitsUser(userId: string, bytes: number): boolean {
    return (this.inFlightByUser.get(userId) ?? 0) + bytes <= this.limits.userBytes;
  }

  private take(userId: string, bytes: number): () => void {
    this.inFlight += bytes;
    this.inFlightByUser.set(userId, (this.inFlightByUser.get(userId) ?? 0) + bytes);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.inFlight -= bytes;
      const left = this.inFlightByUser.get(userId)! - bytes;
      if (left === 0) this.inFlightByUser.delete(userId);
      else this.inFlightByUser.set(userId, left);
      this.grantWaiting();
    };
  }

  private grantWaiting(): void {
    for (let k = 0; k < this.waiting.length; ) {
      const waiter = this.waiting[k];
      if (!this.fitsUser(waiter.userId, waiter.bytes)) {
        k += 1;
        continue;
      }
      if (this.inFlight + waiter.bytes > this.limits.serverBytes) return;
      this.waiting.splice(k, 1);
      waiter.grant();
    }
  }

  private refusal(): TooManyRequestsError {
    const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
    return new TooManyRequestsError(
      `Too much bulk data under way: bulk write bodies in flight may total ${mib(this.limits.serverBytes)} on the server and ${mib(this.limits.userBytes)} per user, and this request waited ${this.limits.maxWaitMs / 1000} s for room. Retry once bulk writes under way have been answered.`,
      this.limits.retryAfterSeconds,
    );
  }
}
