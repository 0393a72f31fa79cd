/**
 * Slows password guessing against one account, whichever clients the guesses come from.
 *
 * Every attempt on a username counts as a failure until it succeeds (so a burst of parallel
 * guesses is counted before any of them is verified). After `freeFailures` failures in a row,
 * each next attempt must wait 1 s, then 2 s, 4 s… up to `maxDelaySeconds`. The wait is short on
 * purpose: anyone can trigger it for any name, so it must never become a lockout of the owner;
 * it only caps the guessing rate at one guess per `maxDelaySeconds` per account.
 *
 * Keyed by the name as typed, existing or not, so the answers never reveal which usernames exist.
 * This one is kept in memory (per server process); on PostgreSQL every instance shares one in the
 * database instead (shared-sign-in-limits.ts), with the same rule (`decideAttempt`). Anyone can
 * fill the table with names of their choosing, so it is bounded twice: at most `maxNames` names and
 * `maxBytes` bytes (names plus a fixed cost each) are remembered, the least recently tried going
 * first; a name is also forgotten `forgetAfterSeconds` after its last attempt.
 */
export interface SignInBackoffOptions {
  /** Failed attempts in a row that wait for nothing. */
  freeFailures: number;
  /** The longest wait between two attempts on one name. */
  maxDelaySeconds: number;
  /** A name quiet this long starts afresh. */
  forgetAfterSeconds: number;
  /** Most names remembered at once. */
  maxNames: number;
  /** Most memory the remembered names may take, estimated as ENTRY_BYTES each plus two bytes a character. */
  maxBytes: number;
  now?: () => number;
}

export interface SignInBackoff {
  /**
   * Registers an attempt on `username`: the seconds to wait when it must be refused now,
   * otherwise 0 (the attempt is counted as failed until `succeeded` is called).
   */
  attempt(username: string): number | Promise<number>;
  /** The attempt with the right password: the name starts afresh. */
  succeeded(username: string): void | Promise<void>;
}

/** The in-process backoff answers at once. */
export interface LocalSignInBackoff extends SignInBackoff {
  attempt(username: string): number;
  succeeded(username: string): void;
}

/**
 * Estimated cost of one remembered name besides its characters: the Map entry, the string's
 * header and the state object (V8 on 64 bits, rounded up).
 */
export const ENTRY_BYTES = 160;

/** What is remembered of a name. */
export interface NameState {
  failures: number;
  /** Epoch ms before which a new attempt is refused. */
  nextAllowedAt: number;
  lastAttemptAt: number;
}

/**
 * An attempt at `at` on a name in `state` (undefined: not remembered, or forgotten): refused for
 * `waitSeconds`, or let through and counted, the name then in `next`.
 */
export function decideAttempt(
  state: NameState | undefined,
  at: number,
  options: Pick<SignInBackoffOptions, 'freeFailures' | 'maxDelaySeconds'>,
): { waitSeconds: number; next?: undefined } | { waitSeconds: 0; next: NameState } {
  if (state && at < state.nextAllowedAt) return { waitSeconds: Math.ceil((state.nextAllowedAt - at) / 1000) };
  const failures = (state?.failures ?? 0) + 1;
  const over = failures - options.freeFailures;
  const delaySeconds = over >= 0 ? Math.min(2 ** over, options.maxDelaySeconds) : 0;
  return { waitSeconds: 0, next: { failures, nextAllowedAt: at + delaySeconds * 1000, lastAttemptAt: at } };
}

export function createSignInBackoff(options: SignInBackoffOptions): LocalSignInBackoff {
  const now = options.now ?? Date.now;
  const names = new Map<string, NameState>();
  let bytes = 0;
  // Strings hold one or two bytes a character: count two, so the bound holds for any text.
  const costOf = (username: string) => ENTRY_BYTES + 2 * username.length;

  function forget(username: string): void {
    if (names.delete(username)) bytes -= costOf(username);
  }

  function current(username: string, at: number): NameState | undefined {
    const state = names.get(username);
    if (state && at - state.lastAttemptAt > options.forgetAfterSeconds * 1000) {
      forget(username);
      return undefined;
    }
    return state;
  }

  function remember(username: string, state: NameState): void {
    // Re-inserting moves the name to the end: the Map's first key is the least recently tried.
    forget(username);
    // A name over the whole budget would push every other name out: it is not remembered
    // (sign-in refuses such names before they get here).
    if (costOf(username) > options.maxBytes) return;
    names.set(username, state);
    bytes += costOf(username);
    while (names.size > options.maxNames || bytes > options.maxBytes) {
      forget(names.keys().next().value as string);
    }
  }

  return {
    attempt(username) {
      const at = now();
      const { waitSeconds, next } = decideAttempt(current(username, at), at, options);
      if (next) remember(username, next);
      return waitSeconds;
    },
    succeeded(username) {
      forget(username);
    },
  };
}
