import type { Question } from '@scholia/shared/api';
import {
  validateOptionTexts, validateQuestionTexts, validateQuestionVisibility, validateVisibleOptions, VISIBLE_OPTIONS_THRESHOLD, type Issues,
} from '../../lib/validation.js';

export interface QuestionOption {
  value: string;
  text: string;
  description: string | null;
}

/** What the question editor changes (spec §3 Question, contract §3.3 PATCH rules). */
export interface QuestionDraft {
  title: string;
  description: string;
  /** In display order; texts may change, values never. */
  options: QuestionOption[];
  visibleOptions: string;
  /** multi_label_selection: options_order "suggestion". */
  suggestionFirst: boolean;
  /** span: can be switched on, never off again. */
  allowOverlapping: boolean;
  /** text: render answers as Markdown. */
  useMarkdown: boolean;
  /** Scholia extension: false hides the question from annotators; a required question stays visible. */
  visibleForAnnotators: boolean;
}

const EDITABLE_OPTIONS = new Set(['label_selection', 'multi_label_selection', 'span']);

/** Label, multi-label and span options can be re-labelled and reordered; rating and ranking options are fixed. */
export const hasEditableOptions = (question: Question) => EDITABLE_OPTIONS.has(question.settings.type);

/** Visible options show only with more than 3 options (spec §3, §9). */
export const showsVisibleOptions = (question: Question, optionCount: number) =>
  hasEditableOptions(question) && optionCount > VISIBLE_OPTIONS_THRESHOLD;

function readOptions(question: Question): QuestionOption[] {
  const raw = Array.isArray(question.settings.options) ? (question.settings.options as Partial<QuestionOption>[]) : [];
  return raw.map((option) => ({
    value: String(option.value),
    text: typeof option.text === 'string' ? option.text : String(option.value),
    description: typeof option.description === 'string' ? option.description : null,
  }));
}

export function toQuestionDraft(question: Question): QuestionDraft {
  const options = hasEditableOptions(question) ? readOptions(question) : [];
  const visible = question.settings.visible_options;
  return {
    title: question.title,
    description: question.description ?? '',
    options,
    // Defaults to the number of options (spec §3).
    visibleOptions: String(typeof visible === 'number' ? visible : options.length),
    suggestionFirst: question.settings.options_order === 'suggestion',
    allowOverlapping: question.settings.allow_overlapping === true,
    useMarkdown: question.settings.use_markdown === true,
    visibleForAnnotators: question.visible_for_annotators !== false,
  };
}

export function validateQuestionDraft(question: Question, draft: QuestionDraft): Issues {
  return {
    ...validateQuestionTexts(draft.title, draft.description),
    ...validateQuestionVisibility(question.required, draft.visibleForAnnotators),
    ...(hasEditableOptions(question) ? validateOptionTexts(draft.options) : {}),
    ...(showsVisibleOptions(question, draft.options.length) ? validateVisibleOptions(draft.visibleOptions, draft.options.length) : {}),
  };
}

export interface QuestionPatch {
  title: string;
  description: string | null;
  settings: Record<string, unknown> & { type: string };
  visible_for_annotators: boolean;
}

/**
 * PATCH /questions/{id} body: title and description trimmed, an empty description sent as null
 * (spec §3, §5); `visible_options` only when the control is shown (spec §7); the visibility
 * always, like the other properties of the editor.
 */
export function toQuestionPatch(question: Question, draft: QuestionDraft): QuestionPatch {
  const type = question.settings.type;
  const settings: QuestionPatch['settings'] = { type };
  if (type === 'text') settings.use_markdown = draft.useMarkdown;
  if (hasEditableOptions(question)) {
    settings.options = draft.options.map((option) => ({ ...option, text: option.text.trim() }));
    if (showsVisibleOptions(question, draft.options.length)) settings.visible_options = Number(draft.visibleOptions.trim());
  }
  if (type === 'multi_label_selection') settings.options_order = draft.suggestionFirst ? 'suggestion' : 'natural';
  // Omitting allow_overlapping counts as false on the server (contract §3.3): always send it.
  if (type === 'span') settings.allow_overlapping = draft.allowOverlapping;
  return {
    title: draft.title.trim(),
    description: draft.description.trim() || null,
    settings,
    visible_for_annotators: draft.visibleForAnnotators,
  };
}

/** Moves the option at `index` by `delta` places (reordering, spec §2 "options order"). */
export function moveOption(options: readonly QuestionOption[], index: number, delta: -1 | 1): QuestionOption[] {
  const target = index + delta;
  if (target < 0 || target >= options.length) return [...options];
  const next = [...options];
  [next[index], next[target]] = [next[target], next[index]];
  return next;
}
