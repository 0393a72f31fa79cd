import { Type, type Static } from '@sinclair/typebox';
import { Nullable, SettingsName, Timestamp, Uuid } from './common.js';

export const FIELD_TYPES = ['text', 'image', 'chat', 'custom'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const FieldTypeName = Type.Unsafe<FieldType>({ type: 'string', enum: [...FIELD_TYPES] });

/** Field settings as output (contract §3.2). */
export const TextFieldSettings = Type.Object({ type: Type.Literal('text'), use_markdown: Type.Boolean() });
export const ImageFieldSettings = Type.Object({ type: Type.Literal('image') });
export const ChatFieldSettings = Type.Object({ type: Type.Literal('chat'), use_markdown: Type.Boolean() });
export const CustomFieldSettings = Type.Object({
  type: Type.Literal('custom'),
  template: Type.String(),
  advanced_mode: Type.Boolean(),
});
export const FieldSettings = Type.Union([TextFieldSettings, ImageFieldSettings, ChatFieldSettings, CustomFieldSettings]);
export type FieldSettings = Static<typeof FieldSettings>;

/**
 * Settings input: only `type` is checked at the edge; the server parses the rest per type so a
 * problem yields one validation issue located under the type, as the reference reports it.
 */
export const FieldSettingsInput = Type.Object({ type: FieldTypeName });

export const Field = Type.Object({
  id: Uuid,
  name: Type.String(),
  title: Type.String(),
  required: Type.Boolean(),
  settings: FieldSettings,
  dataset_id: Uuid,
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type Field = Static<typeof Field>;

export const FieldName = SettingsName;
export const FieldTitle = Type.String({ minLength: 1, maxLength: 500 });

/** `POST /datasets/{id}/fields`; the SDK's `description` is ignored. */
export const FieldCreateBody = Type.Object({
  name: FieldName,
  title: FieldTitle,
  required: Nullable(Type.Boolean()),
  settings: FieldSettingsInput,
});
export type FieldCreateBody = Static<typeof FieldCreateBody>;

/** `PATCH /fields/{id}`: neither key may be null; `name`/`required` are ignored. */
export const FieldUpdateBody = Type.Object({
  title: Type.Optional(FieldTitle),
  settings: Type.Optional(FieldSettingsInput),
});
export type FieldUpdateBody = Static<typeof FieldUpdateBody>;

export const FieldIdParams = Type.Object({ field_id: Uuid });
export type FieldIdParams = Static<typeof FieldIdParams>;
