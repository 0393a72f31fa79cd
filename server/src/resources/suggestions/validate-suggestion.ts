import type { SuggestionCreate } from '@scholia/shared/contract';
import { UnprocessableError } from '../../errors.js';
import { validateResponseValue } from '../responses/validate-response-values.js';
import type { QuestionForCheck } from '../responses/validate-response.js';

/** What a suggestion row stores after its checks. */
export interface CheckedSuggestion {
  question_id: string;
  type: 'model' | 'human' | null;
  value: unknown;
  agent: string | null;
  score: number | number[] | null;
}

/**
 * Contract §3.8: the value follows the question's value rules (no ranking completeness), then
 * the score must match the value's cardinality.
 */
export function validateSuggestion(
  suggestion: SuggestionCreate,
  question: QuestionForCheck,
  recordFields: Record<string, unknown>,
): CheckedSuggestion {
  const value = validateResponseValue(suggestion.value, question.settings, { recordFields });
  const score = suggestion.score ?? null;
  if (!Array.isArray(value) && Array.isArray(score)) {
    throw new UnprocessableError('a list of score values is not allowed for a suggestion with a single value');
  }
  if (Array.isArray(value) && score !== null && !Array.isArray(score)) {
    throw new UnprocessableError('a single score value is not allowed for a suggestion with a multiple items value');
  }
  if (Array.isArray(value) && Array.isArray(score) && value.length !== score.length) {
    throw new UnprocessableError("number of items on value and score attributes doesn't match");
  }
  return { question_id: question.id, type: suggestion.type ?? null, value, agent: suggestion.agent ?? null, score };
}
