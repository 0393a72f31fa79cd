import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { UserRow } from '../storage/tables.js';
import { makeFolder } from '../storage/writable-storage.js';

/** Whom a valid token was issued to: the user's id (never the name, which can be reused) and token version. */
export interface TokenSubject {
  userId: string;
  tokenVersion: number;
}

export interface TokenService {
  issue(user: UserRow): Promise<string>;
  /** The subject of a valid token, or undefined for a bad or expired one, or one without `exp` or outlasting the lifetime. */
  verify(token: string): Promise<TokenSubject | undefined>;
}

/** Leeway on a token's `exp` for clocks of several server instances that disagree a little. */
const CLOCK_SKEW_SECONDS = 60;

/**
 * HS256 JWTs (contract §1.2). The secret is configured, or generated once per install and kept
 * in the data folder, so tokens survive restarts and differ between installs.
 */
export function createTokenService(options: { secret?: string; dataDir: string; lifetimeSeconds: number }): TokenService {
  const key = new TextEncoder().encode(options.secret ?? loadOrCreateSecret(options.dataDir));
  const verified = new VerifiedTokens();
  return {
    async issue(user) {
      return new SignJWT({ identity: user.id, name: user.first_name, username: user.username, role: user.role, ver: user.token_version })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.id)
        .setExpirationTime(Math.floor(Date.now() / 1000) + options.lifetimeSeconds)
        .sign(key);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) return known;
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        // Tokens without a version predate revocation and are refused like any stale one.
        if (typeof payload.sub !== 'string' || typeof payload.ver !== 'number') return undefined;
        // This service only issues tokens that end within the lifetime: one without an end, or
        // ending later, was not issued here (or under a longer lifetime since shortened).
        const latestExp = Math.floor(Date.now() / 1000) + options.lifetimeSeconds + CLOCK_SKEW_SECONDS;
        if (typeof payload.exp !== 'number' || payload.exp > latestExp) return undefined;
        const subject = { userId: payload.sub, tokenVersion: payload.ver };
        verified.add(token, subject, payload.exp * 1000);
        return subject;
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * Tokens whose signature this service checked, until they expire. Each request carries its token,
 * and checking the signature (an HMAC on libuv's thread pool) was a tenth of the server's time
 * under a flood of requests; a token's signature never changes, while whether it is still good
 * (its user and token version) is asked of the database on every request. Bounded: the oldest goes first.
 */
class VerifiedTokens {
  private static readonly MAX = 1_000;
  private readonly byToken = new Map<string, { subject: TokenSubject; expiresAtMs: number }>();

  get(token: string): TokenSubject | undefined {
    const known = this.byToken.get(token);
    if (known && known.expiresAtMs > Date.now()) return known.subject;
    if (known) this.byToken.delete(token);
    return undefined;
  }

  add(token: string, subject: TokenSubject, expiresAtMs: number) {
    if (this.byToken.size >= VerifiedTokens.MAX) this.byToken.delete(this.byToken.keys().next().value!);
    this.byToken.set(token, { subject, expiresAtMs });
  }
}

/** The install's generated secret (data folder `jwt-secret`), created on first use; also keys job secrets. */
export function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    makeFolder(dataDir);
    const secret = randomBytes(48).toString('base64url');
    fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return fs.readFileSync(file, 'utf8').trim();
  }
}
