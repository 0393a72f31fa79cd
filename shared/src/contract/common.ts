import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * Wire schemas shared by the server (validation at the edge) and the frontends (types).
 * Facts from the Argilla v2 contract; names are ours.
 */

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const Uuid = Type.String({ pattern: UUID_PATTERN });

/**
 * Name of a field, question, metadata property or vector settings: 1..200 characters (contract
 * §6.4) without NUL, as names become JSON keys and SQL text, neither of which can hold it.
 */
export const SettingsName = Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000]*$' });

/** Optional key that also accepts an explicit `null` (contract §0). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

/** `{"items": [...]}` wrapper of every collection. */
export const Items = <T extends TSchema>(item: T) => Type.Object({ items: Type.Array(item) });

export const Timestamp = Type.String();

export const IdParams = (name: string) => Type.Object({ [name]: Uuid });

/**
 * Largest `offset` a paged route accepts: far past any dataset's size, and well inside the 64-bit
 * integers SQL engines take (an offset of 2^63 overflows them).
 */
export const MAX_PAGE_OFFSET = 2_147_483_647;
export const PageOffset = Type.Integer({ minimum: 0, maximum: MAX_PAGE_OFFSET, default: 0 });

export const PagingQuery = Type.Object({
  offset: Type.Optional(PageOffset),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
});
export type PagingQuery = Static<typeof PagingQuery>;

export const Role = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('annotator')]);
export type Role = Static<typeof Role>;
