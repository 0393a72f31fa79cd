import { Type, type Static } from '@sinclair/typebox';
import { SettingsName, Timestamp, Uuid } from './common.js';

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

/**
 * Most dimensions a vector may have: above the widest common embedding models (4096), so a
 * settings typo cannot make every record carry a huge vector.
 */
export const MAX_VECTOR_DIMENSIONS = 4096;

/** `POST /datasets/{id}/vectors-settings` */
export const VectorSettingsCreateBody = Type.Object({
  name: SettingsName,
  title: Type.String({ minLength: 1, maxLength: 500 }),
  dimensions: Type.Integer({ minimum: 1, maximum: MAX_VECTOR_DIMENSIONS }),
});
export type VectorSettingsCreateBody = Static<typeof VectorSettingsCreateBody>;

/** `PATCH /vectors-settings/{id}`: `title` is required and non-null. */
export const VectorSettingsUpdateBody = Type.Object({ title: Type.String({ minLength: 1, maxLength: 500 }) });
export type VectorSettingsUpdateBody = Static<typeof VectorSettingsUpdateBody>;

export const VectorSettingsIdParams = Type.Object({ vector_settings_id: Uuid });
export type VectorSettingsIdParams = Static<typeof VectorSettingsIdParams>;
