import { apiWrite, cachedGet } from './query-client.js';
import type { Items, User } from './types.js';

/** A user's link to a sign-in provider: signing in there as `subject` opens this account. */
export interface UserIdentity {
  user_id: string;
  provider: string;
  subject: string;
}

/** Every user (owners only), oldest first; without their API keys. */
export const usersQuery = () => cachedGet<Items<Omit<User, 'api_key'>>>('v1/users');

/** Every account linked to a sign-in provider (owners only). */
export const identitiesQuery = () => cachedGet<Items<UserIdentity>>('v1/identities');

/** Links the user to the provider's subject, replacing an earlier link (owners only). */
export const linkIdentity = (userId: string, provider: string, subject: string) =>
  apiWrite<UserIdentity>('PUT', `v1/users/${userId}/identities/${encodeURIComponent(provider)}`, { json: { subject } });

/** Removes the user's link: that subject's next sign-in makes a new account (owners only). */
export const unlinkIdentity = (userId: string, provider: string) =>
  apiWrite<UserIdentity>('DELETE', `v1/users/${userId}/identities/${encodeURIComponent(provider)}`);
