import { initialAnswers } from './initial-answers.js';
import type { AnnotationRecord, Question } from './types.js';
import { ownResponse } from './types.js';

/**
 * The question the keyboard starts on: the first one the annotator has not answered. A value
 * preselected from a suggestion is no answer of theirs, so its question still counts; with every
 * question answered, the first one.
 */
export function firstUnansweredQuestion(record: AnnotationRecord, questions: Question[]): Question | undefined {
  const values = ownResponse(record)?.values ?? {};
  return questions.find((q) => values[q.name] === undefined) ?? questions[0];
}

/**
 * The questions a record opens with a suggestion preselected (no answer of the annotator's yet):
 * until they touch one, a digit replaces its value (a multi-label suggestion too) instead of
 * toggling an option of it.
 */
export function preselectedQuestions(record: AnnotationRecord, questions: Question[]): Set<string> {
  if (ownResponse(record)) return new Set();
  const answers = initialAnswers(record, questions);
  return new Set(questions.filter((q) => answers[q.name] !== undefined).map((q) => q.name));
}

/**
 * The element of a question that takes the keyboard: its option group, text box or first handle.
 * Each question is one Tab stop (its options are not), so Tab and Shift+Tab move between questions.
 */
export function questionFocusTarget(form: ParentNode, name: string): HTMLElement | null {
  const question = [...form.querySelectorAll('[data-question]')].find((q) => q.getAttribute('data-question') === name);
  return question?.querySelector<HTMLElement>('[data-question-focus]') ?? question?.querySelector<HTMLElement>('button, textarea, select, [tabindex="0"]') ?? null;
}
