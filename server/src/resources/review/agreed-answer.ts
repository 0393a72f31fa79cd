import { answerKey } from '../../lib/agreement/answer-key.js';
import type { ResponseValuesInput } from '../responses/validate-response.js';

interface QuestionOfAnswer {
  name: string;
  settings: { type: string };
}

/**
 * The answer every submitted response gives, or null when they differ. Every question but text
 * must get the same answer (or none) from everyone; a text answer is carried over only when all
 * wrote the same, since free text rarely matches word for word.
 */
export function agreedAnswer(questions: readonly QuestionOfAnswer[], responses: readonly ResponseValuesInput[]): ResponseValuesInput | null {
  if (responses.length === 0) return null;
  const agreed: ResponseValuesInput = {};
  for (const question of questions) {
    const keys = new Set(responses.map((values) => (question.name in values ? answerKey(question.settings.type, values[question.name].value) : '')));
    if (keys.size > 1) {
      if (question.settings.type === 'text') continue;
      return null;
    }
    const first = responses[0][question.name];
    if (first !== undefined) agreed[question.name] = { value: first.value };
  }
  return Object.keys(agreed).length === 0 ? null : agreed;
}
