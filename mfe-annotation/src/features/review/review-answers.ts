import type { Question, RecordResponse } from '@scholia/shared/api';

/** One annotator's submitted answer to a question, as review mode lists it. */
export interface ReviewAnswer {
  userId: string;
  value: unknown;
  /** equal for answers that mean the same (a reordered selection is the same selection) */
  key: string;
}

const canonical = (value: unknown): string => {
  if (!Array.isArray(value)) return JSON.stringify(value);
  return JSON.stringify(value.map((item) => JSON.stringify(item)).sort());
};

/** The submitted answers per question name, in response order. */
export function submittedAnswers(questions: readonly Question[], responses: readonly RecordResponse[]): Map<string, ReviewAnswer[]> {
  const byQuestion = new Map<string, ReviewAnswer[]>(questions.map((q) => [q.name, []]));
  for (const response of responses) {
    if (response.status !== 'submitted' || !response.values) continue;
    for (const [name, entry] of Object.entries(response.values)) {
      if (entry?.value === undefined || entry.value === null) continue;
      byQuestion.get(name)?.push({ userId: response.user_id ?? '', value: entry.value, key: canonical(entry.value) });
    }
  }
  return byQuestion;
}

/** Whether the annotators gave different answers. */
export const disagree = (answers: readonly ReviewAnswer[]): boolean => new Set(answers.map((a) => a.key)).size > 1;

/** The answer given most often (the first of a tie), the proposal for the final answer. */
export function mostCommon(answers: readonly ReviewAnswer[]): ReviewAnswer | undefined {
  const counts = new Map<string, number>();
  for (const answer of answers) counts.set(answer.key, (counts.get(answer.key) ?? 0) + 1);
  let best: ReviewAnswer | undefined;
  for (const answer of answers) if (!best || counts.get(answer.key)! > counts.get(best.key)!) best = answer;
  return best;
}

/** An answer as text: labels joined, rankings in rank order, spans as `label [start–end]`. */
export function answerText(value: unknown): string {
  if (!Array.isArray(value)) return String(value);
  const byRank = (a: unknown, b: unknown) => Number((a as { rank?: number }).rank ?? 0) - Number((b as { rank?: number }).rank ?? 0);
  const ranked = value.every((item) => typeof item === 'object' && item !== null && 'rank' in item);
  return (ranked ? [...value].sort(byRank) : value)
    .map((item) => {
      if (typeof item !== 'object' || item === null) return String(item);
      const o = item as { value?: unknown; rank?: unknown; label?: unknown; start?: unknown; end?: unknown };
      if ('label' in o) return `${String(o.label)} [${String(o.start)}–${String(o.end)}]`;
      return `${String(o.rank)}. ${String(o.value)}`;
    })
    .join(', ');
}
