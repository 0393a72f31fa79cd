import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from './common.js';

/**
 * A user's link to a sign-in provider (Scholia extension): signing in with that provider as that
 * subject (the provider's stable user id, OpenID `sub`) opens this account, and nothing else does.
 */
export const UserIdentity = Type.Object({
  user_id: Uuid,
  /** e.g. `huggingface` */
  provider: Type.String(),
  subject: Type.String(),
});
export type UserIdentity = Static<typeof UserIdentity>;

/** `GET /identities`: every linked account, oldest account first. */
export const UserIdentities = Type.Object({ items: Type.Array(UserIdentity) });
export type UserIdentities = Static<typeof UserIdentities>;

/** `PUT|DELETE /users/{user_id}/identities/{provider}` */
export const UserIdentityParams = Type.Object({
  user_id: Uuid,
  provider: Type.String({ minLength: 1, maxLength: 64 }),
});
export type UserIdentityParams = Static<typeof UserIdentityParams>;

/** `PUT /users/{user_id}/identities/{provider}`: the subject to link (it replaces the user's earlier one). */
export const UserIdentityBody = Type.Object({
  subject: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }),
});
export type UserIdentityBody = Static<typeof UserIdentityBody>;
