import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * Wire schemas shared by the server (validation at the edge) and the frontends (types).
 * Facts from the Argilla v2 contract; names are ours.
 */

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const Uuid = Type.String({ pattern: UUID_PATTERN });

/** Optional key that also accepts an explicit `null` (contract §0). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

/** `{"items": [...]}` wrapper of every collection. */
export const Items = <T extends TSchema>(item: T) => Type.Object({ items: Type.Array(item) });

export const Timestamp = Type.String();

export const IdParams = (name: string) => Type.Object({ [name]: Uuid });

export const PagingQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
});
export type PagingQuery = Static<typeof PagingQuery>;

export const Role = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('annotator')]);
export type Role = Static<typeof Role>;
