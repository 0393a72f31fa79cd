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

/** Contract §6.4: passwords are 8..100 characters. */
export const Password = Type.String({ minLength: 8, maxLength: 100 });

/** `GET /me`, `/users` items (contract §1.4). */
export const User = Type.Object({
  id: Uuid,
  first_name: Type.String(),
  last_name: Type.Union([Type.String(), Type.Null()]),
  username: Type.String(),
  role: RoleName,
  api_key: Type.String(),
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type User = Static<typeof User>;

/** `POST /users` (contract §2.2). `first_name` is trimmed by the server before its length check. */
export const UserCreateBody = Type.Object({
  id: Nullable(Uuid),
  first_name: Type.String({ minLength: 1 }),
  last_name: Nullable(Type.String({ minLength: 1 })),
  username: Type.String({ minLength: 1 }),
  role: OptionalRoleName,
  password: Password,
});
export type UserCreateBody = Static<typeof UserCreateBody>;

/** `PATCH /users/{user_id}`: only `last_name` may be `null`. */
export const UserUpdateBody = Type.Object({
  first_name: Type.Optional(Type.String({ minLength: 1 })),
  last_name: Nullable(Type.String({ minLength: 1 })),
  username: Type.Optional(Type.String({ minLength: 1 })),
  role: Type.Optional(RoleName),
  password: Type.Optional(Password),
});
export type UserUpdateBody = Static<typeof UserUpdateBody>;

export const UserIdParams = Type.Object({ user_id: Uuid });
export type UserIdParams = Static<typeof UserIdParams>;
