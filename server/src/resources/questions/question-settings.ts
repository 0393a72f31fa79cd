import { UnprocessableError } from '../../errors.js';
import {
  checkArray,
  checkBoolean,
  checkInteger,
  checkLiteral,
  checkObject,
  checkString,
  fail,
  type Loc,
} from '../../lib/input-check.js';
import { pyRepr } from '../../lib/python-repr.js';
import { fromJson } from '../../storage/json.js';

/**
 * Question settings (contract §3.3): the stored/output shape of each question type, how a
 * create body becomes one (defaults, limits) and how a PATCH applies to one. Importable by
 * response/suggestion value validation.
 */

export type QuestionType = QuestionSettings['type'];

/** Option of label / multi-label / ranking / span questions. */
export interface QuestionOption {
  value: string;
  text: string;
  description: string | null;
}

export interface TextQuestionSettings {
  type: 'text';
  use_markdown: boolean;
}

export interface RatingQuestionSettings {
  type: 'rating';
  options: { value: number }[];
}

export interface LabelSelectionQuestionSettings {
  type: 'label_selection';
  options: QuestionOption[];
  visible_options: number | null;
}

export interface MultiLabelSelectionQuestionSettings {
  type: 'multi_label_selection';
  options: QuestionOption[];
  visible_options: number | null;
  options_order: 'natural' | 'suggestion';
}

export interface RankingQuestionSettings {
  type: 'ranking';
  options: QuestionOption[];
}

export interface SpanQuestionSettings {
  type: 'span';
  /** Name of the text field the spans point into. */
  field: string;
  options: QuestionOption[];
  visible_options: number | null;
  allow_overlapping: boolean;
  /** Read-only: always true. */
  allow_character_annotation: true;
}

export type QuestionSettings =
  | TextQuestionSettings
  | RatingQuestionSettings
  | LabelSelectionQuestionSettings
  | MultiLabelSelectionQuestionSettings
  | RankingQuestionSettings
  | SpanQuestionSettings;

/** Contract §6.4 option limits per type. */
export const OPTION_LIMITS = {
  rating: { min: 2, max: 11 },
  label_selection: { min: 2, max: 500 },
  multi_label_selection: { min: 2, max: 500 },
  ranking: { min: 2, max: 50 },
  span: { min: 1, max: 500 },
} as const;
export const MIN_VISIBLE_OPTIONS = 3;
export const RATING_VALUE_RANGE = { min: 0, max: 10 } as const;

/** Settings of a stored question row, in output shape. */
export function readQuestionSettings(stored: unknown): QuestionSettings {
  return normalizeStored(fromJson<QuestionSettings>(stored));
}

/** Output shape with every key present (description null, visible_options null, ...). */
function normalizeStored(settings: QuestionSettings): QuestionSettings {
  switch (settings.type) {
    case 'text':
      return { type: 'text', use_markdown: settings.use_markdown ?? false };
    case 'rating':
      return { type: 'rating', options: settings.options.map((o) => ({ value: o.value })) };
    case 'label_selection':
      return { type: 'label_selection', options: settings.options.map(normalizeOption), visible_options: settings.visible_options ?? null };
    case 'multi_label_selection':
      return {
        type: 'multi_label_selection',
        options: settings.options.map(normalizeOption),
        visible_options: settings.visible_options ?? null,
        options_order: settings.options_order ?? 'natural',
      };
    case 'ranking':
      return { type: 'ranking', options: settings.options.map(normalizeOption) };
    case 'span':
      return {
        type: 'span',
        field: settings.field,
        options: settings.options.map(normalizeOption),
        visible_options: settings.visible_options ?? null,
        allow_overlapping: settings.allow_overlapping ?? false,
        allow_character_annotation: true,
      };
  }
}

const normalizeOption = (o: QuestionOption): QuestionOption => ({ value: o.value, text: o.text, description: o.description ?? null });

function parseOptionCreate(raw: unknown, loc: Loc): QuestionOption {
  const option = checkObject(raw, loc);
  return {
    value: checkString(option, 'value', loc, { min: 1, max: 200 })!,
    text: checkString(option, 'text', loc, { min: 1, max: 500 })!,
    description: checkString(option, 'description', loc, { optional: true, nullable: true, min: 1, max: 1000 }) ?? null,
  };
}

function parseOptionUpdate(raw: unknown, loc: Loc): QuestionOption {
  const option = checkObject(raw, loc);
  return {
    value: checkString(option, 'value', loc)!,
    text: checkString(option, 'text', loc)!,
    description: checkString(option, 'description', loc, { optional: true, nullable: true }) ?? null,
  };
}

function checkUniqueValues(values: (string | number)[], loc: Loc) {
  const seen = new Set<string | number>();
  const duplicates = new Set<string | number>();
  for (const value of values) (seen.has(value) ? duplicates : seen).add(value);
  if (duplicates.size > 0) {
    fail('value_error', loc, `Value error, Option values must be unique, found duplicates: {${[...duplicates].map(pyRepr).join(', ')}}`);
  }
}

const visibleOptionsMessage = (count: number) =>
  `the value for 'visible_options' must be less or equal to the number of items in 'options' (${count})`;

function parseLabelOptions(settings: Record<string, unknown>, loc: Loc, limits: { min: number; max: number }) {
  const options = checkArray(settings, 'options', loc, limits)!.map((o, i) => parseOptionCreate(o, [...loc, 'options', i]));
  const visible = checkInteger(settings, 'visible_options', loc, { optional: true, nullable: true, min: MIN_VISIBLE_OPTIONS }) ?? null;
  checkUniqueValues(options.map((o) => o.value), loc);
  if (visible !== null && visible > options.length) fail('value_error', loc, `Value error, ${visibleOptionsMessage(options.length)}`);
  return { options, visible_options: visible };
}

/**
 * Parses `settings` of `POST /datasets/{id}/questions` (the edge already checked `type`).
 * Throws the 422 validation shape with locations under `['body','settings',<type>]`.
 */
export function parseQuestionSettingsCreate(raw: Record<string, unknown>, baseLoc: Loc = ['body', 'settings']): QuestionSettings {
  const type = raw.type as QuestionType;
  const loc = [...baseLoc, type];
  switch (type) {
    case 'text':
      return { type, use_markdown: checkBoolean(raw, 'use_markdown', loc, { optional: true }) ?? false };
    case 'rating': {
      const options = checkArray(raw, 'options', loc, OPTION_LIMITS.rating)!.map((o, i) => {
        const option = checkObject(o, [...loc, 'options', i]);
        return { value: checkInteger(option, 'value', [...loc, 'options', i], RATING_VALUE_RANGE)! };
      });
      checkUniqueValues(options.map((o) => o.value), loc);
      return { type, options };
    }
    case 'label_selection':
      return { type, ...parseLabelOptions(raw, loc, OPTION_LIMITS.label_selection) };
    case 'multi_label_selection': {
      const { options, visible_options } = parseLabelOptions(raw, loc, OPTION_LIMITS.multi_label_selection);
      const order = checkLiteral(raw, 'options_order', loc, ['natural', 'suggestion'] as const, { optional: true }) ?? 'natural';
      return { type, options, visible_options, options_order: order };
    }
    case 'ranking': {
      const options = checkArray(raw, 'options', loc, OPTION_LIMITS.ranking)!.map((o, i) => parseOptionCreate(o, [...loc, 'options', i]));
      checkUniqueValues(options.map((o) => o.value), loc);
      return { type, options };
    }
    case 'span': {
      const field = checkString(raw, 'field', loc, { min: 1, max: 200 })!;
      const { options, visible_options } = parseLabelOptions(raw, loc, OPTION_LIMITS.span);
      const allowOverlapping = checkBoolean(raw, 'allow_overlapping', loc, { optional: true }) ?? false;
      return { type, field, options, visible_options, allow_overlapping: allowOverlapping, allow_character_annotation: true };
    }
  }
}

/**
 * Applies `settings` of `PATCH /questions/{id}` to the stored settings (contract §3.3):
 * same type only, options may be reordered or re-labelled but keep their count and values,
 * `visible_options` within the option count, `allow_overlapping` never switched off.
 * Given keys are shallow-merged into the stored settings.
 */
export function applyQuestionSettingsUpdate(
  current: QuestionSettings,
  raw: Record<string, unknown>,
  baseLoc: Loc = ['body', 'settings'],
): QuestionSettings {
  const type = raw.type as QuestionType;
  if (type !== current.type) {
    throw new UnprocessableError(`question type cannot be changed. expected '${current.type}' but got '${type}'`);
  }
  const loc = [...baseLoc, type];
  switch (current.type) {
    case 'text': {
      const useMarkdown = checkBoolean(raw, 'use_markdown', loc, { optional: true });
      return { ...current, ...(useMarkdown === undefined || useMarkdown === null ? {} : { use_markdown: useMarkdown }) };
    }
    case 'rating':
    case 'ranking':
      return current; // contract §3.3: options are immutable; other keys ignored
    case 'label_selection':
    case 'multi_label_selection':
    case 'span': {
      const limits = OPTION_LIMITS[current.type];
      const rawOptions = checkArray(raw, 'options', loc, { ...limits, optional: true, nullable: true });
      const options = rawOptions ? rawOptions.map((o, i) => parseOptionUpdate(o, [...loc, 'options', i])) : undefined;
      const hasVisible = 'visible_options' in raw && raw.visible_options !== undefined;
      const visible = checkInteger(raw, 'visible_options', loc, { optional: true, nullable: true, min: MIN_VISIBLE_OPTIONS });
      const order =
        current.type === 'multi_label_selection'
          ? checkLiteral(raw, 'options_order', loc, ['natural', 'suggestion'] as const, { optional: true })
          : undefined;
      const allowOverlapping =
        current.type === 'span' ? checkBoolean(raw, 'allow_overlapping', loc, { optional: true, nullable: true }) : undefined;

      if (options) checkOptionsKeepValues(current.options, options);
      if (visible !== undefined && visible !== null && visible > current.options.length) {
        throw new UnprocessableError(visibleOptionsMessage(current.options.length));
      }
      if (current.type === 'span' && current.allow_overlapping && !allowOverlapping) {
        throw new UnprocessableError("'allow_overlapping' can't be disabled because responses may become inconsistent");
      }

      const next = { ...current } as LabelSelectionQuestionSettings | MultiLabelSelectionQuestionSettings | SpanQuestionSettings;
      if (options) next.options = options;
      if (hasVisible) next.visible_options = visible ?? null;
      if (next.type === 'multi_label_selection' && order) next.options_order = order;
      if (next.type === 'span' && typeof allowOverlapping === 'boolean') next.allow_overlapping = allowOverlapping;
      return next;
    }
  }
}

function checkOptionsKeepValues(current: QuestionOption[], update: QuestionOption[]) {
  if (current.length !== update.length) {
    throw new UnprocessableError(`the number of options cannot be modified. expected ${current.length} but got ${update.length}`);
  }
  const byValue = (a: QuestionOption, b: QuestionOption) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
  const sortedCurrent = [...current].sort(byValue);
  const sortedUpdate = [...update].sort(byValue);
  const unexpected = sortedUpdate.filter((option, i) => option.value !== sortedCurrent[i].value).map((o) => o.value);
  if (unexpected.length > 0) {
    throw new UnprocessableError(`the option values cannot be modified. found unexpected option values: ${pyRepr(unexpected)}`);
  }
}
