/**
 * Bounds on the work one request, or one user, may ask of the server: past each one the request
 * is refused with a 4xx whose `detail` states the bound, so no input can stall or exhaust the
 * process. The edge schemas hold the bounds on list sizes (search filters 50, sort keys 10, terms
 * values 250, records per bulk call 500, responses per bulk call 100).
 */

/** Characters of a search's `query.text.q`. */
export const TEXT_QUERY_MAX_CHARS = 2_000;

/** Distinct terms of a search's `query.text.q` (repeated terms count once). */
export const TEXT_QUERY_MAX_TERMS = 32;

/**
 * How deep the operators of a search's `query.text.q` may nest once repeats are merged (FTS5's
 * expression parser overflows past ~60 levels); `a | b c | d …` nests one level per operator change.
 */
export const TEXT_QUERY_MAX_DEPTH = 32;

/**
 * Time one search may take. PostgreSQL cancels a statement past it. SQLite cannot interrupt a
 * statement (better-sqlite3 offers no interrupt or progress handler): there the search stops at
 * the next step boundary once its own event-loop time passes the budget (lib/event-loop-slices.ts),
 * and the bounds on the input keep each statement short.
 */
export const SEARCH_TIME_BUDGET_MS = 5_000;

/**
 * Requests of the expensive kinds (search, metrics and progress, record listings, bulk writes) under
 * way at once over all users, plus one for a user with nothing else under way (lib/user-work-slots.ts);
 * the rest wait their turn. SQLite runs every query on the event loop, so more at once would only
 * make a cheap request wait behind more expensive ones; two (not one) so that a request awaiting
 * real I/O does not stop the others. PostgreSQL runs queries in its own processes.
 */
export const EXPENSIVE_MAX_RUNNING = { sqlite: 2, postgres: 4 } as const;

/** Such requests one user may have running or waiting at once; more are refused with 429. */
export const USER_MAX_ADMITTED_EXPENSIVE = 8;

/** How long such a request may wait for its turn before it is refused with 429 (a busy server, not a flooding user). */
export const USER_QUEUE_WAIT_MS = 10_000;

/** The `Retry-After` (seconds) of a request refused for USER_MAX_ADMITTED_EXPENSIVE or USER_QUEUE_WAIT_MS. */
export const USER_BUSY_RETRY_AFTER_SECONDS = 1;
