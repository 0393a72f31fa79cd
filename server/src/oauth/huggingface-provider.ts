import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../config.js';
import { BadRequestError, UnauthorizedError } from '../errors.js';
import { nowTimestamp } from '../lib/time.js';
import type { Tables } from '../storage/tables.js';
import type { OAuthCallback } from './oauth-callback.js';
import { findOrCreateSignInAccount, type SignInAccount } from './sign-in-account.js';

export const HUGGINGFACE_PROVIDER = 'huggingface';

/** `users.identity_subject` holds this many characters; Hugging Face's are far shorter. */
const MAX_SUBJECT_LENGTH = 255;

/** A state is good for this long between the redirect and the callback. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

/** Where the callback lives when no redirect URI is configured. */
export interface OAuthRequestContext {
  /** e.g. `https://scholia.example.org`, as a trusted reverse proxy names it; never a bare `Host` header. */
  origin: string;
}

/** The authorize URL the browser goes to, and the state the browser must bring back (in a cookie too). */
export interface OAuthAuthorization {
  url: string;
  state: string;
}

interface OpenIdEndpoints {
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
}

interface UserInfo {
  sub?: string;
  name?: string;
  preferred_username?: string;
}

/**
 * "Sign in with Hugging Face" (contract §1.3, hub-contract §6): OpenID Connect authorization-code
 * flow against SCHOLIA_OPENID_URL. The `state` is random, stored in `oauth_states`, checked and
 * deleted on use (a replay or a forged state is refused with 400), and must match the state the
 * browser that started the flow keeps in a cookie, so a callback link made by someone else cannot
 * sign the browser into that person's account. Accounts are found by the Hugging Face subject
 * (sign-in-account.ts), never by username.
 */
export class HuggingFaceOAuthProvider {
  readonly name = HUGGINGFACE_PROVIDER;
  private endpoints?: Promise<OpenIdEndpoints>;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly settings: AppConfig['huggingfaceOAuth'] & { clientId: string; clientSecret: string },
  ) {}

  /** The provider's authorize URL with a fresh state (stored); the route redirects there (307). */
  async authorizationUrl(_query: Record<string, string>, context: OAuthRequestContext): Promise<OAuthAuthorization> {
    const state = randomBytes(32).toString('base64url');
    const now = Date.now();
    await this.db
      .deleteFrom('oauth_states')
      .where('inserted_at', '<', stamp(now - OAUTH_STATE_TTL_MS))
      .execute();
    await this.db.insertInto('oauth_states').values({ state, provider: this.name, inserted_at: nowTimestamp() }).execute();
    const { authorization_endpoint } = await this.discover();
    const url = new URL(authorization_endpoint);
    url.search = new URLSearchParams({
      client_id: this.settings.clientId,
      redirect_uri: this.redirectUri(context),
      response_type: 'code',
      scope: this.settings.scope,
      state,
    }).toString();
    return { url: url.toString(), state };
  }

  /** Exchanges the code, reads userinfo and returns the linked account, created on first sign-in. */
  async signIn(callback: OAuthCallback, context: OAuthRequestContext): Promise<SignInAccount> {
    const { code, state, browserState } = callback;
    if (!code || !state) throw new BadRequestError('Missing code or state in the OAuth callback');
    if (!browserState || !sameText(state, browserState)) {
      throw new BadRequestError('The OAuth state does not belong to this browser: start the sign-in again');
    }
    await this.consumeState(state);
    const endpoints = await this.discover();
    const tokenResponse = await fetch(endpoints.token_endpoint, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
        Authorization: `Basic ${Buffer.from(`${this.settings.clientId}:${this.settings.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: this.redirectUri(context), client_id: this.settings.clientId }),
    });
    if (!tokenResponse.ok) throw new UnauthorizedError('Could not authenticate with Hugging Face');
    const { access_token: accessToken } = (await tokenResponse.json()) as { access_token?: string };
    if (!accessToken) throw new UnauthorizedError('Could not authenticate with Hugging Face');
    const userinfoResponse = await fetch(endpoints.userinfo_endpoint, {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
    });
    if (!userinfoResponse.ok) throw new UnauthorizedError('Could not read the Hugging Face user');
    const info = (await userinfoResponse.json()) as UserInfo;
    const username = info.preferred_username;
    if (typeof username !== 'string' || !username) throw new UnauthorizedError('The Hugging Face user has no username');
    if (typeof info.sub !== 'string' || !info.sub || info.sub.length > MAX_SUBJECT_LENGTH) {
      throw new UnauthorizedError('The Hugging Face user has no usable subject');
    }
    return findOrCreateSignInAccount(
      this.db,
      { provider: this.name, subject: info.sub, preferredUsername: username, fullName: typeof info.name === 'string' ? info.name : undefined },
      { ownerUsername: this.settings.ownerUsername, workspaces: this.settings.workspaces, takenNameSuffix: 'hf' },
    );
  }

  /** Deletes the state; refuses unknown, replayed (already deleted) or expired states. */
  private async consumeState(state: string): Promise<void> {
    const row = await this.db
      .selectFrom('oauth_states')
      .selectAll()
      .where('state', '=', state)
      .where('provider', '=', this.name)
      .executeTakeFirst();
    const deleted = row
      ? Number((await this.db.deleteFrom('oauth_states').where('state', '=', state).executeTakeFirst()).numDeletedRows)
      : 0;
    // Two callbacks racing with one state: only the one whose DELETE removed the row goes on.
    if (!row || deleted !== 1) throw new BadRequestError('Invalid OAuth state');
    if (row.inserted_at < stamp(Date.now() - OAUTH_STATE_TTL_MS)) throw new BadRequestError('Expired OAuth state');
  }

  /** The configured callback URL, else the one on the origin the route worked out. */
  private redirectUri(context: OAuthRequestContext): string {
    return this.settings.redirectUri ?? `${context.origin}/oauth/huggingface/callback`;
  }

  /** OpenID discovery (cached); falls back to Hugging Face's fixed paths when it fails. */
  private discover(): Promise<OpenIdEndpoints> {
    const base = this.settings.openidUrl;
    const fallback: OpenIdEndpoints = {
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      userinfo_endpoint: `${base}/oauth/userinfo`,
    };
    this.endpoints ??= fetch(`${base}/.well-known/openid-configuration`)
      .then(async (response) => {
        if (!response.ok) throw new Error(`discovery answered ${response.status}`);
        const found = (await response.json()) as Partial<OpenIdEndpoints>;
        return { ...fallback, ...Object.fromEntries(Object.entries(found).filter(([, v]) => typeof v === 'string')) } as OpenIdEndpoints;
      })
      .catch(() => {
        this.endpoints = undefined; // retry discovery next time
        return fallback;
      });
    return this.endpoints;
  }
}

/** Equal strings, compared in constant time (a state is a secret of the browser that holds it). */
function sameText(a: string, b: string): boolean {
  const [left, right] = [Buffer.from(a), Buffer.from(b)];
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Epoch ms in the stored timestamp format (naive UTC with microseconds). */
function stamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000`;
}

/** The Hugging Face provider when a client id and secret are configured, else undefined. */
export function createHuggingFaceProvider(db: Kysely<Tables>, config: AppConfig): HuggingFaceOAuthProvider | undefined {
  const settings = config.huggingfaceOAuth;
  if (!settings.clientId || !settings.clientSecret) return undefined;
  return new HuggingFaceOAuthProvider(db, { ...settings, clientId: settings.clientId, clientSecret: settings.clientSecret });
}
