/**
 * Slows password guessing against one account, whichever clients the guesses come from.
 *
 * Every attempt on a username counts as a failure until it succeeds (so a burst of parallel
 * guesses is counted before any of them is verified). After `freeFailures` failures in a row,
 * each next attempt must wait 1 s, then 2 s, 4 s… up to `maxDelaySeconds`. The wait is short on
 * purpose: anyone can trigger it for any name, so it must never become a lockout of the owner;
 * it only caps the guessing rate at one guess per `maxDelaySeconds` per account.
 *
 * Kept in memory (per server process) and keyed by the name as typed, existing or not, so the
 * answers never reveal which usernames exist. A name is forgotten `forgetAfterSeconds` after its
 * last attempt; at most `maxNames` names are remembered (the least recently tried go first).
 */
export interface SignInBackoffOptions {
  freeFailures: number;
  maxDelaySeconds: number;
  forgetAfterSeconds: number;
  maxNames: number;
  now?: () => number;
}

export interface SignInBackoff {
  /**
   * Registers an attempt on `username`: the seconds to wait when it must be refused now,
   * otherwise 0 (the attempt is counted as failed until `succeeded` is called).
   */
  attempt(username: string): number;
  /** The attempt with the right password: the name starts afresh. */
  succeeded(username: string): void;
}

interface NameState {
  failures: number;
  /** Epoch ms before which a new attempt is refused. */
  nextAllowedAt: number;
  lastAttemptAt: number;
}

export function createSignInBackoff(options: SignInBackoffOptions): SignInBackoff {
  const now = options.now ?? Date.now;
  const names = new Map<string, NameState>();

  function current(username: string, at: number): NameState | undefined {
    const state = names.get(username);
    if (state && at - state.lastAttemptAt > options.forgetAfterSeconds * 1000) {
      names.delete(username);
      return undefined;
    }
    return state;
  }

  function remember(username: string, state: NameState): void {
    // Re-inserting moves the name to the end: the Map's first key is the least recently tried.
    names.delete(username);
    names.set(username, state);
    if (names.size > options.maxNames) names.delete(names.keys().next().value as string);
  }

  return {
    attempt(username) {
      const at = now();
      const state = current(username, at) ?? { failures: 0, nextAllowedAt: 0, lastAttemptAt: at };
      if (at < state.nextAllowedAt) return Math.ceil((state.nextAllowedAt - at) / 1000);
      const failures = state.failures + 1;
      const over = failures - options.freeFailures;
      const delaySeconds = over >= 0 ? Math.min(2 ** over, options.maxDelaySeconds) : 0;
      remember(username, { failures, nextAllowedAt: at + delaySeconds * 1000, lastAttemptAt: at });
      return 0;
    },
    succeeded(username) {
      names.delete(username);
    },
  };
}
