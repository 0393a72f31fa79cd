import type { AnswerValue, Answers, Question, RankingItem } from './types.js';
import { questionOptions } from './types.js';

/** How complete one answer is (spec §4 answer validity). */
export interface AnswerState {
  /** Complete: text not empty, something selected, every option ranked; spans always. */
  valid: boolean;
  /** Ranking with some but not all options ranked. */
  partiallyValid: boolean;
  /** Ranking: none or all ranked; every other type: true. */
  hasValidValues: boolean;
}

function rankingCounts(question: Question, value: AnswerValue | undefined) {
  const total = questionOptions(question).length;
  const ranked = Array.isArray(value) ? (value as RankingItem[]).filter((item) => typeof item.rank === 'number').length : 0;
  return { total, ranked };
}

export function answerState(question: Question, value: AnswerValue | undefined): AnswerState {
  switch (question.settings.type) {
    case 'text': {
      const valid = typeof value === 'string' && value.trim() !== '';
      return { valid, partiallyValid: false, hasValidValues: true };
    }
    case 'label_selection':
      return { valid: typeof value === 'string' && value !== '', partiallyValid: false, hasValidValues: true };
    case 'rating':
      return { valid: typeof value === 'number' && Number.isInteger(value), partiallyValid: false, hasValidValues: true };
    case 'multi_label_selection':
      return { valid: Array.isArray(value) && value.length > 0, partiallyValid: false, hasValidValues: true };
    case 'span':
      return { valid: true, partiallyValid: false, hasValidValues: true };
    case 'ranking': {
      const { total, ranked } = rankingCounts(question, value);
      const valid = total > 0 && ranked === total;
      const partiallyValid = ranked > 0 && ranked < total;
      return { valid, partiallyValid, hasValidValues: ranked === 0 || valid };
    }
    default:
      throw new Error(`Question answer for type ${question.settings.type} is not implemented yet.`);
  }
}

/**
 * Record completion (spec §5): every required question answered and every non-required one
 * with valid values. Submit is only offered when this holds.
 */
export function canSubmit(questions: Question[], answers: Answers): boolean {
  return questions.every((question) => {
    const value = answers[question.name];
    // Spans are always valid, but a required span question wants one: the server refuses a submit
    // without it.
    if (question.required && question.settings.type === 'span') return Array.isArray(value) && value.length > 0;
    const state = answerState(question, value);
    return question.required ? state.valid : state.hasValidValues;
  });
}

/** True when at least one answer would be sent (drafts of nothing are not saved automatically). */
export function hasAnyAnswer(questions: Question[], answers: Answers): boolean {
  return questions.some((q) => {
    if (q.settings.type === 'span') return Array.isArray(answers[q.name]) && (answers[q.name] as unknown[]).length > 0;
    const state = answerState(q, answers[q.name]);
    return state.valid || state.partiallyValid;
  });
}

/**
 * The `values` sent to the server: only valid or partially valid answers (spec §4). A
 * partially ranked ranking keeps its unranked options with `rank: null` (draft only; a
 * submit needs every rank, contract §3.7).
 */
export function toResponseValues(questions: Question[], answers: Answers): Record<string, { value: unknown }> {
  const values: Record<string, { value: unknown }> = {};
  for (const question of questions) {
    const value = answers[question.name];
    if (value === undefined) continue;
    const state = answerState(question, value);
    if (!state.valid && !state.partiallyValid) continue;
    if (question.settings.type === 'text') values[question.name] = { value: (value as string) };
    else values[question.name] = { value };
  }
  return values;
}
