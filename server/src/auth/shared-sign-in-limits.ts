import { createHash } from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Kysely } from 'kysely';
import {
  countInWindow,
  deleteExpiredSignInLimits,
  deleteSignInLimit,
  lockSignInLimit,
  updateSignInLimit,
} from '../storage/repositories/sign-in-limits.repository.js';
import type { Tables } from '../storage/tables.js';
import { decideAttempt, type SignInBackoff, type SignInBackoffOptions } from './sign-in-backoff.js';

/**
 * The sign-in limits on PostgreSQL, kept in the `sign_in_limits` table so that every instance
 * counts together: behind a load balancer a client gets as many attempts as from one instance.
 * Rows are keyed by a hash of the address or username, so the table never holds what someone
 * typed as a username (a password, by mistake). A row expires with its window or backoff;
 * expired rows are deleted at most once a minute per process, on an attempt. Anyone can add
 * rows by trying new names or addresses, but no faster than sign-ins are answered, and each is
 * gone within the backoff's forget time (15 minutes) or the address window (a minute).
 */
export interface SharedSignInLimits {
  /** The per-username backoff (sign-in-backoff.ts's rule) over the table. */
  usernameBackoff(options: Pick<SignInBackoffOptions, 'freeFailures' | 'maxDelaySeconds' | 'forgetAfterSeconds'>): SignInBackoff;
  /** A store for @fastify/rate-limit counting each address's attempts in fixed windows of `windowMs`. */
  addressStore(windowMs: number): FastifyRateLimitStoreCtor;
}

const SWEEP_EVERY_MS = 60_000;

const keyOf = (kind: 'address' | 'username', value: string) => `${kind}:${createHash('sha256').update(value).digest('base64url')}`;

export function createSharedSignInLimits({ db, now = Date.now }: { db: Kysely<Tables>; now?: () => number }): SharedSignInLimits {
  let sweptAt = 0;
  async function sweep(at: number): Promise<void> {
    if (at - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = at;
    await deleteExpiredSignInLimits(db, at);
  }

  return {
    usernameBackoff(options) {
      const forgetMs = options.forgetAfterSeconds * 1000;
      return {
        async attempt(username) {
          const at = now();
          await sweep(at);
          const key = keyOf('username', username);
          return db.transaction().execute(async (trx) => {
            const row = await lockSignInLimit(trx, key);
            const state = row.expires_at > at ? { failures: row.count, nextAllowedAt: row.not_before, lastAttemptAt: row.expires_at - forgetMs } : undefined;
            const { waitSeconds, next } = decideAttempt(state, at, options);
            if (next) await updateSignInLimit(trx, { key, count: next.failures, not_before: next.nextAllowedAt, expires_at: next.lastAttemptAt + forgetMs });
            return waitSeconds;
          });
        },
        async succeeded(username) {
          await deleteSignInLimit(db, keyOf('username', username));
        },
      };
    },

    addressStore(windowMs) {
      class SharedAddressStore implements FastifyRateLimitStore {
        incr(address: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void): void {
          const at = now();
          sweep(at)
            .then(() => countInWindow(db, keyOf('address', address), at, windowMs))
            .then(
              ({ count, endsAt }) => callback(null, { current: count, ttl: endsAt - at }),
              (error: Error) => callback(error),
            );
        }

        child(): FastifyRateLimitStore {
          return this;
        }
      }
      return SharedAddressStore;
    },
  };
}
