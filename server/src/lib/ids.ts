import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/**
 * Time-ordered ids (UUIDv7): new rows land at the right edge of every index keyed by an id, where
 * random ids scattered each insert over the whole B-tree and slowed ingestion as tables grew.
 */
export const newId = (): string => uuidv7();

/** Contract §6.5: a random URL-safe API key generated at user creation. */
export const newApiKey = (): string => randomBytes(32).toString('base64url');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);
