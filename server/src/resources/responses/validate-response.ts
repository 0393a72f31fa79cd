import { UnprocessableError } from '../../errors.js';
import { pyRepr } from '../../lib/python-repr.js';
import { fromFlag, fromJson } from '../../storage/json.js';
import type { QuestionRow } from '../../storage/tables.js';
import { validateResponseValue, type QuestionSettingsLike } from './validate-response-values.js';

export type ResponseStatus = 'draft' | 'submitted' | 'discarded';
export type ResponseValuesInput = Record<string, { value: unknown }>;

/** A dataset question as the response checks need it (settings parsed). */
export interface QuestionForCheck {
  id: string;
  name: string;
  required: boolean;
  settings: QuestionSettingsLike;
}

/** A stored question in the shape the value checks read. */
export const questionForCheck = (row: QuestionRow): QuestionForCheck => ({
  id: row.id,
  name: row.name,
  required: fromFlag(row.required),
  settings: fromJson<QuestionSettingsLike>(row.settings),
});

/** Options of {@link validateResponse}. */
export interface ValidateResponseOptions {
  /** Names of questions hidden from the caller (an annotator): a value for one is refused as if unknown. */
  hidden?: ReadonlySet<string>;
}

/**
 * Response-level checks of contract §3.7, in the reference's order, then each value's check.
 * Returns the values to store (normalised, e.g. ranking `rank: null`), or null when none.
 */
export function validateResponse(
  response: { status: ResponseStatus; values?: ResponseValuesInput | null },
  questions: QuestionForCheck[],
  recordFields: Record<string, unknown>,
  { hidden }: ValidateResponseOptions = {},
): ResponseValuesInput | null {
  const values = response.values ?? null;
  const submitted = response.status === 'submitted';
  if (submitted && (!values || Object.keys(values).length === 0)) {
    throw new UnprocessableError('missing response values for submitted response');
  }
  if (submitted && values) {
    for (const question of questions) {
      if (question.required && !(question.name in values)) {
        throw new UnprocessableError(`missing response value for required question with name=${pyRepr(question.name)}`);
      }
    }
  }
  if (!values) return null;
  const byName = new Map(questions.map((q) => [q.name, q]));
  for (const name of Object.keys(values)) {
    // Scholia extension: an annotator cannot answer what the listing never showed them, and is
    // told so in the words used for a name that does not exist, so the refusal reveals nothing.
    if (!byName.has(name) || hidden?.has(name)) {
      throw new UnprocessableError(`found response value for non configured question with name=${pyRepr(name)}`);
    }
  }
  const stored: ResponseValuesInput = {};
  for (const question of questions) {
    if (!(question.name in values)) continue;
    const value = validateResponseValue(values[question.name].value, question.settings, { recordFields, status: response.status });
    stored[question.name] = { value };
  }
  // Keep the client's key order (the reference echoes the dict it stored).
  return Object.fromEntries(Object.keys(values).map((name) => [name, stored[name]]));
}
