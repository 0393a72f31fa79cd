import os from 'node:os';

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

/** The kinds of expensive request, each with work slots of its own where the database allows. */
export type ExpensiveKind = 'read' | 'write';

/**
 * Requests of the expensive kinds under way at once over all users, plus one for a user with
 * nothing else under way (lib/user-work-slots.ts); the rest wait their turn. Reads are searches,
 * metrics and progress, record listings and exports; writes are bulk writes.
 * SQLite runs every query on the event loop, so reads and writes share two slots: more at once
 * would only make a cheap request wait behind more expensive ones; two (not one) so that a request
 * awaiting real I/O does not stop the others. On PostgreSQL each read runs in a database process
 * of its own, on the cores the server shares with it: reads get one slot fewer than the cores, so
 * a user's short request finds a core free (on 2 cores, two at once put the well-behaved reader's
 * p99 at ~100 ms during a flood, one at ~55 ms: the abuse bench). Bulk writes, mostly waiting on
 * the database, keep four slots of their own, so reads do not slow ingestion.
 */
export const EXPENSIVE_MAX_RUNNING = {
  sqlite: { read: 2 },
  postgres: { read: Math.max(1, os.availableParallelism() - 1), write: 4 },
} as const;

/** Such requests one user may have running or waiting at once; more are refused with 429. */
export const USER_MAX_ADMITTED_EXPENSIVE = 8;

/** How long such a request may wait for its turn before it is refused with 429 (a busy server, not a flooding user). */
export const USER_QUEUE_WAIT_MS = 10_000;

/** The `Retry-After` (seconds) of a request refused for USER_MAX_ADMITTED_EXPENSIVE or USER_QUEUE_WAIT_MS. */
export const USER_BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * How long a request refused for USER_MAX_ADMITTED_EXPENSIVE waits for its 429: the Retry-After, so
 * a client resending at once gets no more answers than one heeding it. Refused at once, a
 * flood's refusals took more of the machine than its searches (the abuse bench on PostgreSQL).
 */
export const TOO_MANY_ANSWER_DELAY_MS = USER_BUSY_RETRY_AFTER_SECONDS * 1000;

/**
 * Largest body of one bulk record write (`POST`/`PUT /datasets/{id}/records/bulk`). A bulk body
 * costs the server many times its size in memory while it is parsed, checked, stored and answered
 * with the records written (60 MB took ~0.9 GB), and on SQLite its one transaction holds the event
 * loop in proportion to its size, so every other request waits behind it. The SDK's `log()` sends
 * 256 records a call: 16 MiB leaves each of them 64 KiB, room for a few pages of text or a
 * 1,536-dimension vector written as JSON (~32 KB) beside its fields. Larger records go in smaller
 * batches (`log(..., batch_size=...)`).
 */
export const BULK_BODY_MAX_BYTES = 16 * 1024 * 1024;

/** How long a bulk write waits for room in the bulk body budget before it is refused with 429. */
export const BULK_BODY_QUEUE_WAIT_MS = 30_000;

/** The `Retry-After` (seconds) of a bulk write refused for the bulk body budget. */
export const BULK_BODY_RETRY_AFTER_SECONDS = 5;
