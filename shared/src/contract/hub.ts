import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './common.js';

/** One `{source, target}` pair of a Hub import mapping (hub-contract §2). */
export const HubMappingItem = Type.Object({
  source: Type.String({ minLength: 1 }),
  target: Type.String({ minLength: 1 }),
});
export type HubMappingItem = Static<typeof HubMappingItem>;

/** `POST /datasets/{id}/import` (contract §2.4, hub-contract §2). */
export const HubImportBody = Type.Object({
  name: Type.String({ minLength: 1 }),
  subset: Type.String({ minLength: 1 }),
  split: Type.String({ minLength: 1 }),
  mapping: Type.Object({
    fields: Type.Array(HubMappingItem, { minItems: 1 }),
    metadata: Nullable(Type.Array(HubMappingItem)),
    suggestions: Nullable(Type.Array(HubMappingItem)),
    external_id: Nullable(Type.String()),
  }),
});
export type HubImportBody = Static<typeof HubImportBody>;

/** `POST /datasets/{id}/export` (contract §2.4, hub-contract §3). */
export const HubExportBody = Type.Object({
  name: Type.String({ minLength: 1 }),
  subset: Nullable(Type.String({ minLength: 1 })),
  split: Nullable(Type.String({ minLength: 1 })),
  private: Nullable(Type.Boolean()),
  token: Type.String({ minLength: 1 }),
});
export type HubExportBody = Static<typeof HubExportBody>;
