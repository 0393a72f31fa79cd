/**
 * The validation rules of spec §5 for the settings screens, as pure functions.
 * An issue names a message of the 'settings' namespace; it is shown next to its input.
 */
export interface Issue {
  key: string;
  params?: Record<string, string | number>;
}

export type Issues = Partial<Record<string, Issue>>;

/** Spec §9 title maxima. */
export const QUESTION_TITLE_MAX = 200;
export const QUESTION_DESCRIPTION_MAX = 500;
export const FIELD_TITLE_MAX = 500;
export const METADATA_TITLE_MAX = 500;
export const VECTOR_TITLE_MAX = 500;
/** Visible options appear only with more than this many options (spec §9). */
export const VISIBLE_OPTIONS_THRESHOLD = 3;

export const REQUIRED: Issue = { key: 'validation.required' };

/** Lengths count code points, as the server does (contract §0). */
export function textLength(value: string): number {
  return [...value].length;
}

export function hasIssues(issues: Issues): boolean {
  return Object.values(issues).some(Boolean);
}

function maxLength(value: string, max: number): Issue | undefined {
  return textLength(value.trim()) > max ? { key: `validation.max${max}` } : undefined;
}

/** Guidelines: not empty after trimming (spec §5). */
export function validateGuidelines(guidelines: string): Issues {
  return { guidelines: guidelines.trim() === '' ? REQUIRED : undefined };
}

/** distribution.minSubmitted: present and at least 1 (spec §5); a whole number on the wire. */
export function validateMinSubmitted(minSubmitted: string): Issues {
  const text = minSubmitted.trim();
  const value = Number(text);
  return { minSubmitted: text === '' || !Number.isInteger(value) || value < 1 ? REQUIRED : undefined };
}

/** Question title required and at most 200; description at most 500 (spec §5). */
export function validateQuestionTexts(title: string, description: string): Issues {
  return {
    title: title.trim() === '' ? REQUIRED : maxLength(title, QUESTION_TITLE_MAX),
    description: maxLength(description, QUESTION_DESCRIPTION_MAX),
  };
}

/** Each option keeps a non-empty text (contract §3.3: text 1..500). Keys are `option:<value>`. */
export function validateOptionTexts(options: readonly { value: string; text: string }[]): Issues {
  const issues: Issues = {};
  for (const option of options) {
    issues[`option:${option.value}`] = option.text.trim() === '' ? REQUIRED : maxLength(option.text, 500);
  }
  return issues;
}

/** Visible options, when shown: a whole number from 3 to the number of options (contract §3.3). */
export function validateVisibleOptions(visibleOptions: string, optionCount: number): Issues {
  if (optionCount <= VISIBLE_OPTIONS_THRESHOLD) return {};
  const text = visibleOptions.trim();
  const value = Number(text);
  const ok = text !== '' && Number.isInteger(value) && value >= VISIBLE_OPTIONS_THRESHOLD && value <= optionCount;
  return { visibleOptions: ok ? undefined : { key: 'validation.visibleOptions', params: { max: optionCount } } };
}

/**
 * A required question must be answered to submit, so it is never hidden from annotators (the
 * server refuses it with 422 too).
 */
export function validateQuestionVisibility(required: boolean, visibleForAnnotators: boolean): Issues {
  return { visibleForAnnotators: required && !visibleForAnnotators ? { key: 'validation.requiredVisible' } : undefined };
}

/** Field title at most 500; an empty one falls back to the field name on update (spec §5). */
export function validateFieldTitle(title: string): Issues {
  return { title: maxLength(title, FIELD_TITLE_MAX) };
}

/** Metadata property and vector titles: at most 500 (spec §5); the server needs at least 1. */
export function validateTitle500(title: string): Issues {
  return { title: title.trim() === '' ? REQUIRED : maxLength(title, 500) };
}

/** The hub export form (spec §2, §5). Hub tokens start with `hf_`. */
export function validateHubExport(form: { owner: string; name: string; token: string }): Issues {
  const token = form.token.trim();
  return {
    owner: form.owner.trim() === '' ? { key: 'validation.ownerRequired' } : undefined,
    name: form.name.trim() === '' ? { key: 'validation.nameRequired' } : undefined,
    token: token === '' ? { key: 'validation.tokenRequired' } : /^hf_\w+$/.test(token) ? undefined : { key: 'validation.invalidToken' },
  };
}
