import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import { NotFoundError } from '../../errors.js';
import { createHuggingFaceProvider, type OAuthAuthorization, type OAuthRequestContext } from '../../oauth/huggingface-provider.js';
import type { OAuthCallback } from '../../oauth/oauth-callback.js';
import type { SignInAccount } from '../../oauth/sign-in-account.js';
import type { Tables } from '../../storage/tables.js';

/**
 * A sign-in provider of contract §1.3. Hugging Face is the only one; another would implement
 * this interface and be returned by `createOAuthProviders`, the routes stay as they are.
 */
export interface OAuthProvider {
  readonly name: string;
  /** The provider's authorize URL the browser is redirected to (307), and its state; `query` is the frontend's. */
  authorizationUrl(query: Record<string, string>, context: OAuthRequestContext): Promise<OAuthAuthorization>;
  /** Completes a sign-in from the callback (`code`, `state`, the browser's state cookie); creates the account on first login. */
  signIn(callback: OAuthCallback, context: OAuthRequestContext): Promise<SignInAccount>;
}

export interface OAuthProvidersOptions {
  config: AppConfig;
  db: Kysely<Tables>;
}

/** The providers configured for this server; empty when none is. */
export function createOAuthProviders(options: OAuthProvidersOptions): OAuthProvider[] {
  const huggingface = createHuggingFaceProvider(options.db, options.config);
  return huggingface ? [huggingface] : [];
}

/** The named provider, or 404 `OAuth Provider '<name>' not found`. */
export function requireOAuthProvider(providers: OAuthProvider[], name: string): OAuthProvider {
  const provider = providers.find((p) => p.name === name);
  if (!provider) throw new NotFoundError(`OAuth Provider '${name}' not found`);
  return provider;
}
