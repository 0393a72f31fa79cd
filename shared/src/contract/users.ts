import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp, Uuid } from './common.js';

/**
 * A role as one `enum` keyword, so a wrong value yields a single validation issue
 * (a TypeBox union of literals reports one issue per branch).
 */
export const RoleName = Type.Unsafe<'owner' | 'admin' | 'annotator'>({ type: 'string', enum: ['owner', 'admin', 'annotator'] });

/** `RoleName` or `null`, still one keyword (a `Nullable` union would report one issue per branch). */
const OptionalRoleName = Type.Optional(
  Type.Unsafe<'owner' | 'admin' | 'annotator' | null>({ type: ['string', 'null'], enum: ['owner', 'admin', 'annotator', null] }),
);

/**
 * Usernames are 1..200 characters: sign-in refuses a longer name before any work, and a user
 * created with one could never sign in.
 */
export const USERNAME_MAX_LENGTH = 200;
export const Username = Type.String({ minLength: 1, maxLength: USERNAME_MAX_LENGTH });

/** Contract §6.4: passwords are 8..100 characters. */
export const Password = Type.String({ minLength: 8, maxLength: 100 });

/**
 * A user as `/users`, `/workspaces/{id}/users` and every other route show it (contract §1.4),
 * without `api_key`: a user's key is shown to that user alone (`CurrentUser`).
 */
export const User = Type.Object({
  id: Uuid,
  first_name: Type.String(),
  last_name: Type.Union([Type.String(), Type.Null()]),
  username: Type.String(),
  role: RoleName,
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type User = Static<typeof User>;

/** `GET /me`: the caller's own user, with its API key. */
export const CurrentUser = Type.Composite([User, Type.Object({ api_key: Type.String() })]);
export type CurrentUser = Static<typeof CurrentUser>;

/** `POST /me/api-key` (Scholia extension): the caller's new key, and a token to go on with (older ones are ended). */
export const ApiKeyRotation = Type.Object({
  api_key: Type.String(),
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
});
export type ApiKeyRotation = Static<typeof ApiKeyRotation>;

/**
 * `PUT /me/password` (Scholia extension): the signed-in user's new password, proven by the
 * current one. The current one has the sign-in bound, not 8..100: a configured owner password
 * is not length-checked.
 */
export const PasswordChangeBody = Type.Object({
  current_password: Type.String({ maxLength: 1024 }),
  new_password: Password,
});
export type PasswordChangeBody = Static<typeof PasswordChangeBody>;

/** `POST /users` (contract §2.2). `first_name` is trimmed by the server before its length check. */
export const UserCreateBody = Type.Object({
  id: Nullable(Uuid),
  first_name: Type.String({ minLength: 1 }),
  last_name: Nullable(Type.String({ minLength: 1 })),
  username: Username,
  role: OptionalRoleName,
  password: Password,
});
export type UserCreateBody = Static<typeof UserCreateBody>;

/** `PATCH /users/{user_id}`: only `last_name` may be `null`. */
export const UserUpdateBody = Type.Object({
  first_name: Type.Optional(Type.String({ minLength: 1 })),
  last_name: Nullable(Type.String({ minLength: 1 })),
  username: Type.Optional(Username),
  role: Type.Optional(RoleName),
  password: Type.Optional(Password),
});
export type UserUpdateBody = Static<typeof UserUpdateBody>;

export const UserIdParams = Type.Object({ user_id: Uuid });
export type UserIdParams = Static<typeof UserIdParams>;
