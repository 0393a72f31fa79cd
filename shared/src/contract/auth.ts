import { Type, type Static } from '@sinclair/typebox';
import { USERNAME_MAX_LENGTH } from './users.js';

/**
 * `POST /token`, form-encoded (contract §1.2). Passwords are set at 8..100 characters; the sign-in
 * bound is looser (a configured owner password is not length-checked) but still refuses a huge
 * value before it is hashed. A username longer than any user may have is refused (422) before it
 * is looked up or counted by the per-username backoff, which keeps every name it is sent.
 */
export const TokenBody = Type.Object({
  username: Type.String({ maxLength: USERNAME_MAX_LENGTH }),
  password: Type.String({ maxLength: 1024 }),
});
export type TokenBody = Static<typeof TokenBody>;

export const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
});
export type TokenResponse = Static<typeof TokenResponse>;

/** `GET /oauth2/providers` (contract §1.3). */
export const OAuthProviders = Type.Object({ items: Type.Array(Type.Object({ name: Type.String() })) });
export type OAuthProviders = Static<typeof OAuthProviders>;

export const OAuthProviderParams = Type.Object({ provider: Type.String() });
export type OAuthProviderParams = Static<typeof OAuthProviderParams>;
