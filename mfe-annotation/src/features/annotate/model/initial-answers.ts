import type { AnnotationRecord, Answers, AnswerValue, Question, RecordSuggestion } from './types.js';
import { ownResponse } from './types.js';

/** The record's suggestion for a question, if any. */
export function suggestionFor(record: AnnotationRecord, question: Question): RecordSuggestion | undefined {
  return record.suggestions?.find((s) => s.question_id === question.id);
}

/**
 * A pending record starts from its suggestions; any other status from the saved answer (spec §4).
 */
export function initialAnswers(record: AnnotationRecord, questions: Question[]): Answers {
  const answers: Answers = {};
  const response = ownResponse(record);
  for (const question of questions) {
    if (response) {
      const saved = response.values?.[question.name];
      if (saved !== undefined) answers[question.name] = saved.value as AnswerValue;
    } else {
      const suggestion = suggestionFor(record, question);
      if (suggestion && suggestion.value !== null && suggestion.value !== undefined) answers[question.name] = suggestion.value as AnswerValue;
    }
  }
  return answers;
}

/** Suggestion score with 1 decimal (spec §9); a list of scores shows the highest. */
export function formatScore(score: RecordSuggestion['score']): string | undefined {
  if (score === null || score === undefined) return undefined;
  const value = Array.isArray(score) ? Math.max(...score) : score;
  return value.toFixed(1);
}

/** The score a suggestion gives one option value (multi-label lists pair values and scores). */
export function scoreForOption(suggestion: RecordSuggestion | undefined, option: string): number | undefined {
  if (!suggestion) return undefined;
  if (Array.isArray(suggestion.value)) {
    const index = (suggestion.value as unknown[]).findIndex((v) => (typeof v === 'object' && v !== null ? (v as { value?: unknown }).value : v) === option);
    if (index < 0) return undefined;
    if (Array.isArray(suggestion.score)) return suggestion.score[index];
    return suggestion.score ?? undefined;
  }
  if (String(suggestion.value) !== option) return undefined;
  return typeof suggestion.score === 'number' ? suggestion.score : undefined;
}

/** Query score as a percentage with 1 decimal; none when negative (spec §3 record). */
export function queryScorePercent(score: number | null | undefined): string | undefined {
  if (score === null || score === undefined || score < 0) return undefined;
  return (Math.round(score * 1000) / 10).toFixed(1);
}
