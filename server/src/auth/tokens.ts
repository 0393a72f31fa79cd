import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { UserRow } from '../storage/tables.js';

/** Whom a valid token was issued to: the user's id (never the name, which can be reused) and token version. */
export interface TokenSubject {
  userId: string;
  tokenVersion: number;
}

export interface TokenService {
  issue(user: UserRow): Promise<string>;
  /** The subject of a valid token, or undefined for a bad or expired one. */
  verify(token: string): Promise<TokenSubject | undefined>;
}

/**
 * HS256 JWTs (contract §1.2). The secret is configured, or generated once per install and kept
 * in the data folder, so tokens survive restarts and differ between installs.
 */
export function createTokenService(options: { secret?: string; dataDir: string; lifetimeSeconds: number }): TokenService {
  const key = new TextEncoder().encode(options.secret ?? loadOrCreateSecret(options.dataDir));
  return {
    async issue(user) {
      return new SignJWT({ identity: user.id, name: user.first_name, username: user.username, role: user.role, ver: user.token_version })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.id)
        .setExpirationTime(Math.floor(Date.now() / 1000) + options.lifetimeSeconds)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        // Tokens without a version predate revocation and are refused like any stale one.
        if (typeof payload.sub !== 'string' || typeof payload.ver !== 'number') return undefined;
        return { userId: payload.sub, tokenVersion: payload.ver };
      } catch {
        return undefined;
      }
    },
  };
}

/** The install's generated secret (data folder `jwt-secret`), created on first use; also keys job secrets. */
export function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return fs.readFileSync(file, 'utf8').trim();
  }
}
