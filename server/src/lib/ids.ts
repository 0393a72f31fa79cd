import { randomBytes, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

/** Contract §6.5: a random URL-safe API key generated at user creation. */
export const newApiKey = (): string => randomBytes(32).toString('base64url');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);
