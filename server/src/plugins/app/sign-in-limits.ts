import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { createSharedSignInLimits, type SharedSignInLimits } from '../../auth/shared-sign-in-limits.js';
import { createSignInBackoff, type SignInBackoff } from '../../auth/sign-in-backoff.js';

declare module 'fastify' {
  interface FastifyInstance {
    signInLimits: SignInLimits;
  }
}

/** The limits on password guessing, one set for every route that checks a password. */
export interface SignInLimits {
  /**
   * The per-username backoff (sign-in-backoff.ts): `POST /token` and a password change count in
   * the same one, so neither is a way around the other. Undefined when
   * SCHOLIA_LOGIN_BACKOFF_AFTER_FAILURES is 0.
   */
  usernameBackoff?: SignInBackoff;
  /** On PostgreSQL, the table every instance counts in (shared-sign-in-limits.ts); undefined on SQLite. */
  shared?: SharedSignInLimits;
}

/**
 * A guessing rate of at most one try a minute per account; a name is forgotten 15 minutes after its
 * last try. 16 MiB holds about 30,000 names of the longest kind (200 characters), more of shorter ones.
 */
const USERNAME_BACKOFF = { maxDelaySeconds: 60, forgetAfterSeconds: 15 * 60, maxNames: 100_000, maxBytes: 16 * 1024 * 1024 };

export const signInLimitsPlugin = fp(
  async (app: FastifyInstance) => {
    const shared = app.database.dialect === 'postgres' ? createSharedSignInLimits({ db: app.database.db }) : undefined;
    const options = { freeFailures: app.config.loginBackoffAfterFailures, ...USERNAME_BACKOFF };
    const usernameBackoff =
      app.config.loginBackoffAfterFailures > 0 ? (shared?.usernameBackoff(options) ?? createSignInBackoff(options)) : undefined;
    app.decorate('signInLimits', { usernameBackoff, shared });
  },
  { name: 'sign-in-limits', dependencies: ['database'] },
);
