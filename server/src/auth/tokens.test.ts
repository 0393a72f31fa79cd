import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserRow } from '../storage/tables.js';
import { createTokenService } from './tokens.js';

const user = { id: 'user-1', first_name: 'Ada', username: 'ada', role: 'annotator', token_version: 3 } as UserRow;
const service = (secret: string, lifetimeSeconds = 3_600) => createTokenService({ secret, dataDir: '/nonexistent', lifetimeSeconds });

afterEach(() => vi.useRealTimers());

describe('token service', () => {
  it('names the user by id and token version, on every check of the same token', async () => {
    const tokens = service('secret-a');
    const token = await tokens.issue(user);
    expect(await tokens.verify(token)).toEqual({ userId: 'user-1', tokenVersion: 3 });
    expect(await tokens.verify(token)).toEqual({ userId: 'user-1', tokenVersion: 3 });
  });

  it('refuses a token signed with another secret, though another service checked it', async () => {
    const token = await service('secret-a').issue(user);
    const a = service('secret-a');
    expect(await a.verify(token)).toBeDefined();
    expect(await service('secret-b').verify(token)).toBeUndefined();
  });

  it('refuses an altered token after the original was checked', async () => {
    const tokens = service('secret-a');
    const token = await tokens.issue(user);
    await tokens.verify(token);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = [header, Buffer.from(JSON.stringify({ ...claims, sub: 'owner-1' })).toString('base64url'), signature].join('.');
    expect(await tokens.verify(forged)).toBeUndefined();
  });

  it('refuses a token once it has expired, though it was good before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tokens = service('secret-a', 60);
    const token = await tokens.issue(user);
    expect(await tokens.verify(token)).toBeDefined();
    vi.setSystemTime(Date.now() + 61_000);
    expect(await tokens.verify(token)).toBeUndefined();
  });

  it('refuses a token signed with the secret but without an expiry, or one beyond the lifetime', async () => {
    const key = new TextEncoder().encode('secret-a');
    const claims = { identity: user.id, username: user.username, role: user.role, ver: user.token_version };
    const forge = (exp?: number) => {
      const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id);
      return (exp === undefined ? jwt : jwt.setExpirationTime(exp)).sign(key);
    };
    const tokens = service('secret-a', 3_600);
    const now = Math.floor(Date.now() / 1000);
    expect(await tokens.verify(await forge())).toBeUndefined();
    expect(await tokens.verify(await forge(now + 10 * 365 * 86_400))).toBeUndefined();
    expect(await tokens.verify(await forge(now + 3_600 + 3_600))).toBeUndefined();
    // Within the lifetime (and a little clock skew) it is good.
    expect(await tokens.verify(await forge(now + 3_600 + 30))).toEqual({ userId: 'user-1', tokenVersion: 3 });
  });
});
