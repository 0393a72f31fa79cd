import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Uuid } from './common.js';

export const RESPONSE_STATUSES = ['draft', 'submitted', 'discarded'] as const;
export type ResponseStatus = (typeof RESPONSE_STATUSES)[number];
export const ResponseStatusName = Type.Unsafe<ResponseStatus>({ type: 'string', enum: [...RESPONSE_STATUSES] });

/** `{question_name: {value}}`: values keyed by question name (contract §3.7). */
export const ResponseValues = Type.Record(Type.String(), Type.Object({ value: Type.Unknown() }));
export type ResponseValues = Static<typeof ResponseValues>;

/** `POST /records/{id}/responses` and `PUT /responses/{id}` (contract §2.10). */
export const ResponseBody = Type.Object({
  status: ResponseStatusName,
  values: Nullable(ResponseValues),
});
export type ResponseBody = Static<typeof ResponseBody>;

/** One item of `POST /me/responses/bulk`. */
export const ResponseUpsertItem = Type.Object({
  record_id: Uuid,
  status: ResponseStatusName,
  values: Nullable(ResponseValues),
});
export type ResponseUpsertItem = Static<typeof ResponseUpsertItem>;

/** Contract §6.4: 1..100 responses per bulk request. */
export const ResponsesBulkBody = Type.Object({ items: Type.Array(ResponseUpsertItem, { minItems: 1, maxItems: 100 }) });
export type ResponsesBulkBody = Static<typeof ResponsesBulkBody>;

/** A response embedded in a record payload (contract §3.6, UserResponse). */
export const UserResponseCreate = Type.Object({
  user_id: Uuid,
  status: ResponseStatusName,
  values: Nullable(ResponseValues),
});
export type UserResponseCreate = Static<typeof UserResponseCreate>;
