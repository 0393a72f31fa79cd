import { Type, type Static } from '@sinclair/typebox';
import { Nullable, SettingsName, Timestamp, Uuid } from './common.js';

export const QUESTION_TYPES = ['text', 'rating', 'label_selection', 'multi_label_selection', 'ranking', 'span'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const QuestionTypeName = Type.Unsafe<QuestionType>({ type: 'string', enum: [...QUESTION_TYPES] });

/** Option of label / multi-label / ranking / span questions; output always carries `description`. */
export const QuestionOption = Type.Object({
  value: Type.String(),
  text: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
});
export type QuestionOption = Static<typeof QuestionOption>;

/** Question settings as output (contract §3.3). */
export const TextQuestionSettings = Type.Object({ type: Type.Literal('text'), use_markdown: Type.Boolean() });
export const RatingQuestionSettings = Type.Object({
  type: Type.Literal('rating'),
  options: Type.Array(Type.Object({ value: Type.Integer() })),
});
export const LabelSelectionQuestionSettings = Type.Object({
  type: Type.Literal('label_selection'),
  options: Type.Array(QuestionOption),
  visible_options: Type.Union([Type.Integer(), Type.Null()]),
});
export const MultiLabelSelectionQuestionSettings = Type.Object({
  type: Type.Literal('multi_label_selection'),
  options: Type.Array(QuestionOption),
  visible_options: Type.Union([Type.Integer(), Type.Null()]),
  options_order: Type.Unsafe<'natural' | 'suggestion'>({ type: 'string', enum: ['natural', 'suggestion'] }),
});
export const RankingQuestionSettings = Type.Object({ type: Type.Literal('ranking'), options: Type.Array(QuestionOption) });
export const SpanQuestionSettings = Type.Object({
  type: Type.Literal('span'),
  field: Type.String(),
  options: Type.Array(QuestionOption),
  visible_options: Type.Union([Type.Integer(), Type.Null()]),
  allow_overlapping: Type.Boolean(),
  allow_character_annotation: Type.Boolean(),
});
export const QuestionSettings = Type.Union([
  TextQuestionSettings,
  RatingQuestionSettings,
  LabelSelectionQuestionSettings,
  MultiLabelSelectionQuestionSettings,
  RankingQuestionSettings,
  SpanQuestionSettings,
]);
export type QuestionSettings = Static<typeof QuestionSettings>;

/** Settings input: `type` is checked at the edge, the rest by the server per type. */
export const QuestionSettingsInput = Type.Object({ type: QuestionTypeName });

export const Question = Type.Object({
  id: Uuid,
  name: Type.String(),
  title: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  required: Type.Boolean(),
  settings: QuestionSettings,
  /** Scholia extension (not in the Argilla contract): false hides the question from annotators. */
  visible_for_annotators: Type.Boolean(),
  dataset_id: Uuid,
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type Question = Static<typeof Question>;

export const QuestionName = SettingsName;
export const QuestionTitle = Type.String({ minLength: 1, maxLength: 500 });
export const QuestionDescription = Type.String({ minLength: 1, maxLength: 1000 });

/** `POST /datasets/{id}/questions`; `visible_for_annotators` (Scholia extension) defaults to true. */
export const QuestionCreateBody = Type.Object({
  name: QuestionName,
  title: QuestionTitle,
  description: Nullable(QuestionDescription),
  required: Nullable(Type.Boolean()),
  settings: QuestionSettingsInput,
  visible_for_annotators: Nullable(Type.Boolean()),
});
export type QuestionCreateBody = Static<typeof QuestionCreateBody>;

/**
 * `PATCH /questions/{id}`: `title`, `settings` and `visible_for_annotators` must not be null
 * (omitted keeps the stored value); `description: null` clears.
 */
export const QuestionUpdateBody = Type.Object({
  title: Type.Optional(QuestionTitle),
  description: Nullable(QuestionDescription),
  settings: Type.Optional(QuestionSettingsInput),
  visible_for_annotators: Type.Optional(Type.Boolean()),
});
export type QuestionUpdateBody = Static<typeof QuestionUpdateBody>;

export const QuestionIdParams = Type.Object({ question_id: Uuid });
export type QuestionIdParams = Static<typeof QuestionIdParams>;
