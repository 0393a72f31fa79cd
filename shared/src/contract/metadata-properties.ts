import { Type, type Static } from '@sinclair/typebox';
import { SettingsName, Timestamp, Uuid } from './common.js';

export const METADATA_PROPERTY_TYPES = ['terms', 'integer', 'float'] as const;
export type MetadataPropertyType = (typeof METADATA_PROPERTY_TYPES)[number];
export const MetadataPropertyTypeName = Type.Unsafe<MetadataPropertyType>({ type: 'string', enum: [...METADATA_PROPERTY_TYPES] });

/** Settings as output (contract §3.4). */
export const TermsMetadataSettings = Type.Object({
  type: Type.Literal('terms'),
  values: Type.Union([Type.Array(Type.Unknown()), Type.Null()]),
});
export const IntegerMetadataSettings = Type.Object({
  type: Type.Literal('integer'),
  min: Type.Union([Type.Integer(), Type.Null()]),
  max: Type.Union([Type.Integer(), Type.Null()]),
});
export const FloatMetadataSettings = Type.Object({
  type: Type.Literal('float'),
  min: Type.Union([Type.Number(), Type.Null()]),
  max: Type.Union([Type.Number(), Type.Null()]),
});
export const MetadataPropertySettings = Type.Union([TermsMetadataSettings, IntegerMetadataSettings, FloatMetadataSettings]);
export type MetadataPropertySettings = Static<typeof MetadataPropertySettings>;

/** Settings input: `type` is checked at the edge, the rest by the server per type. */
export const MetadataPropertySettingsInput = Type.Object({ type: MetadataPropertyTypeName });

export const MetadataProperty = Type.Object({
  id: Uuid,
  name: Type.String(),
  title: Type.String(),
  settings: MetadataPropertySettings,
  visible_for_annotators: Type.Boolean(),
  dataset_id: Uuid,
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type MetadataProperty = Static<typeof MetadataProperty>;

export const MetadataPropertyName = SettingsName;
export const MetadataPropertyTitle = Type.String({ minLength: 1, maxLength: 500 });

/** `POST /datasets/{id}/metadata-properties`; `visible_for_annotators` defaults to true. */
export const MetadataPropertyCreateBody = Type.Object({
  name: MetadataPropertyName,
  title: MetadataPropertyTitle,
  settings: MetadataPropertySettingsInput,
  visible_for_annotators: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
});
export type MetadataPropertyCreateBody = Static<typeof MetadataPropertyCreateBody>;

/** `PATCH /metadata-properties/{id}`: neither key may be null; omitted visibility means hidden. */
export const MetadataPropertyUpdateBody = Type.Object({
  title: Type.Optional(MetadataPropertyTitle),
  visible_for_annotators: Type.Optional(Type.Boolean()),
});
export type MetadataPropertyUpdateBody = Static<typeof MetadataPropertyUpdateBody>;

export const MetadataPropertyIdParams = Type.Object({ metadata_property_id: Uuid });
export type MetadataPropertyIdParams = Static<typeof MetadataPropertyIdParams>;

/** `GET /metadata-properties/{id}/metrics` */
export const TermsMetadataMetrics = Type.Object({
  type: Type.Literal('terms'),
  total: Type.Integer(),
  values: Type.Array(Type.Object({ term: Type.Unknown(), count: Type.Integer() })),
});
export const NumericMetadataMetrics = Type.Object({
  type: Type.Unsafe<'integer' | 'float'>({ type: 'string', enum: ['integer', 'float'] }),
  min: Type.Union([Type.Number(), Type.Null()]),
  max: Type.Union([Type.Number(), Type.Null()]),
});
export const MetadataMetrics = Type.Union([TermsMetadataMetrics, NumericMetadataMetrics]);
export type MetadataMetrics = Static<typeof MetadataMetrics>;
