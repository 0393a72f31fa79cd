import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Uuid } from './common.js';
import { UserResponseCreate } from './responses.js';
import { SuggestionCreate } from './suggestions.js';
import { MAX_VECTOR_DIMENSIONS } from './vectors-settings.js';

/** Contract §6.4: 1..500 records per bulk create / upsert. */
export const RECORDS_BULK_MAX_ITEMS = 500;

const Vectors = Type.Record(Type.String(), Type.Array(Type.Number(), { maxItems: MAX_VECTOR_DIMENSIONS }));

/** RecordCreate (contract §3.6). `external_id` numbers are accepted and stored as strings. */
export const RecordCreate = Type.Object({
  fields: Type.Record(Type.String(), Type.Unknown()),
  metadata: Nullable(Type.Record(Type.String(), Type.Unknown())),
  external_id: Nullable(Type.Union([Type.String(), Type.Number()])),
  responses: Nullable(Type.Array(UserResponseCreate)),
  suggestions: Nullable(Type.Array(SuggestionCreate)),
  vectors: Nullable(Vectors),
});
export type RecordCreate = Static<typeof RecordCreate>;

/** RecordUpsert: RecordCreate plus `id`, with `fields` optional. */
export const RecordUpsert = Type.Object({
  id: Nullable(Uuid),
  fields: Nullable(Type.Record(Type.String(), Type.Unknown())),
  metadata: Nullable(Type.Record(Type.String(), Type.Unknown())),
  external_id: Nullable(Type.Union([Type.String(), Type.Number()])),
  responses: Nullable(Type.Array(UserResponseCreate)),
  suggestions: Nullable(Type.Array(SuggestionCreate)),
  vectors: Nullable(Vectors),
});
export type RecordUpsert = Static<typeof RecordUpsert>;

export const RecordsBulkCreateBody = Type.Object({
  items: Type.Array(RecordCreate, { minItems: 1, maxItems: RECORDS_BULK_MAX_ITEMS }),
});
export type RecordsBulkCreateBody = Static<typeof RecordsBulkCreateBody>;

export const RecordsBulkUpsertBody = Type.Object({
  items: Type.Array(RecordUpsert, { minItems: 1, maxItems: RECORDS_BULK_MAX_ITEMS }),
});
export type RecordsBulkUpsertBody = Static<typeof RecordsBulkUpsertBody>;

/** `PATCH /records/{id}` (contract §2.9). */
export const RecordUpdateBody = Type.Object({
  fields: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  metadata: Nullable(Type.Record(Type.String(), Type.Unknown())),
  suggestions: Nullable(Type.Array(SuggestionCreate)),
  vectors: Nullable(Vectors),
});
export type RecordUpdateBody = Static<typeof RecordUpdateBody>;

/** `DELETE /datasets/{id}/records?ids=a,b` and `DELETE /records/{id}/suggestions?ids=`: raw comma list. */
export const IdsQuery = Type.Object({ ids: Type.Optional(Type.String()) });
export type IdsQuery = Static<typeof IdsQuery>;
