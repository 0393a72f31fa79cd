import { Type, type Static } from '@sinclair/typebox';
import { Timestamp, Uuid } from './common.js';

/** Vector settings (contract §3.5). */
export const VectorSettings = Type.Object({
  id: Uuid,
  name: Type.String(),
  title: Type.String(),
  dimensions: Type.Integer(),
  dataset_id: Uuid,
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type VectorSettings = Static<typeof VectorSettings>;

/** `POST /datasets/{id}/vectors-settings` */
export const VectorSettingsCreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  title: Type.String({ minLength: 1, maxLength: 500 }),
  dimensions: Type.Integer({ exclusiveMinimum: 0 }),
});
export type VectorSettingsCreateBody = Static<typeof VectorSettingsCreateBody>;

/** `PATCH /vectors-settings/{id}`: `title` is required and non-null. */
export const VectorSettingsUpdateBody = Type.Object({ title: Type.String({ minLength: 1, maxLength: 500 }) });
export type VectorSettingsUpdateBody = Static<typeof VectorSettingsUpdateBody>;

export const VectorSettingsIdParams = Type.Object({ vector_settings_id: Uuid });
export type VectorSettingsIdParams = Static<typeof VectorSettingsIdParams>;
