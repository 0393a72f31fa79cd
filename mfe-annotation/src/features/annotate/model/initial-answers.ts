import type { AnnotationRecord, Answers, AnswerValue, Question, RankingItem, RecordSuggestion } from './types.js';
import { formatNumber, formatPercent } from '@scholia/shared/i18n';
import { ownResponse } from './types.js';

/** The record's suggestion for a question, if any. */
export function suggestionFor(record: AnnotationRecord, question: Question): RecordSuggestion | undefined {
  return record.suggestions?.find((s) => s.question_id === question.id);
}

/**
 * A ranking as `{value, rank}` items. The SDK sends a suggested ranking as its values in order
 * (`[{"value": "b"}, {"value": "a"}]`, stored with `rank: null`) or as plain strings: there the
 * position is the rank. Ranks given explicitly are kept.
 */
export function toRanking(value: unknown): RankingItem[] {
  if (!Array.isArray(value)) return [];
  const items = value.map((v) => (typeof v === 'object' && v !== null ? { value: String((v as RankingItem).value), rank: (v as RankingItem).rank ?? null } : { value: String(v), rank: null }));
  return items.every((item) => item.rank === null) ? items.map((item, index) => ({ ...item, rank: index + 1 })) : items;
}

/** A suggestion's value as the form holds an answer of its question. */
function suggestedAnswer(question: Question, value: unknown): AnswerValue {
  return question.settings.type === 'ranking' ? toRanking(value) : (value as AnswerValue);
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
      if (suggestion && suggestion.value !== null && suggestion.value !== undefined) answers[question.name] = suggestedAnswer(question, suggestion.value);
    }
  }
  return answers;
}

/** One decimal, in the browser's number format ("0,8" in German). */
export const oneDecimal = (value: number): string => formatNumber(value, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Suggestion score with 1 decimal (spec §9); a list of scores shows the highest. */
export function formatScore(score: RecordSuggestion['score']): string | undefined {
  if (score === null || score === undefined) return undefined;
  const value = Array.isArray(score) ? Math.max(...score) : score;
  return oneDecimal(value);
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
  return formatPercent(score * 100, 1);
}
