import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PageOffset, Uuid } from './common.js';
import { MAX_VECTOR_DIMENSIONS } from './vectors-settings.js';

/**
 * Record listing and search (contract §2.9, §4). The edge checks shapes only; the server checks
 * each scope's keys and each filter kind itself so errors carry the contract's messages.
 */

const oneOf = <T extends string>(values: readonly T[]) => Type.Unsafe<T>({ type: 'string', enum: [...values] });

export const SEARCH_SCOPE_ENTITIES = ['record', 'metadata', 'suggestion', 'response'] as const;
export type SearchScopeEntity = (typeof SEARCH_SCOPE_ENTITIES)[number];
export const RECORD_SCOPE_PROPERTIES = ['id', 'external_id', 'inserted_at', 'updated_at', 'status'] as const;
export const SUGGESTION_SCOPE_PROPERTIES = ['value', 'score', 'agent', 'type'] as const;

/** `{entity, ...}`: which keys matter depends on `entity` (contract §4.2 scopes table). */
export const SearchScope = Type.Object({
  entity: oneOf(SEARCH_SCOPE_ENTITIES),
  property: Nullable(Type.String()),
  metadata_property: Nullable(Type.String()),
  question: Nullable(Type.String()),
});
export type SearchScope = Static<typeof SearchScope>;

export const FilterValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

/** Terms (`values`) or range (`ge`/`le`) filter; `type` picks which. */
export const SearchFilter = Type.Object({
  type: oneOf(['terms', 'range'] as const),
  scope: SearchScope,
  values: Nullable(Type.Array(FilterValue)),
  ge: Nullable(Type.Union([Type.Number(), Type.String()])),
  le: Nullable(Type.Union([Type.Number(), Type.String()])),
});
export type SearchFilter = Static<typeof SearchFilter>;

export const SearchTextQuery = Type.Object({
  q: Type.String(),
  field: Nullable(Type.String()),
});

export const SearchVectorQuery = Type.Object({
  name: Type.String(),
  record_id: Nullable(Uuid),
  value: Nullable(Type.Array(Type.Number(), { maxItems: MAX_VECTOR_DIMENSIONS })),
  order: Nullable(oneOf(['most_similar', 'least_similar'] as const)),
  /** Sent by the frontend, ignored (contract §4.2). */
  max_results: Nullable(Type.Number()),
});

export const SearchSort = Type.Object({
  scope: SearchScope,
  order: Nullable(oneOf(['asc', 'desc'] as const)),
});
export type SearchSort = Static<typeof SearchSort>;

/** `POST /datasets/{id}/records/search` and `/me/...` body: every key optional and nullable. */
export const SearchBody = Type.Object({
  query: Nullable(
    Type.Object({
      text: Nullable(SearchTextQuery),
      vector: Nullable(SearchVectorQuery),
    }),
  ),
  filters: Nullable(
    Type.Object({
      and: Type.Array(SearchFilter, { minItems: 1, maxItems: 50 }),
    }),
  ),
  sort: Nullable(Type.Array(SearchSort, { minItems: 1, maxItems: 10 })),
});
export type SearchBody = Static<typeof SearchBody>;

/** `offset`, `limit` 1..1000 (default 50) and repeated/comma `include` (contract §4.1, §4.4). */
export const RecordsPageQuery = Type.Object({
  offset: Type.Optional(PageOffset),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
  include: Type.Optional(Type.Array(Type.String())),
});
export type RecordsPageQuery = Static<typeof RecordsPageQuery>;

export const SearchDatasetParams = Type.Object({ dataset_id: Uuid });
export const SearchRecordParams = Type.Object({ record_id: Uuid });
