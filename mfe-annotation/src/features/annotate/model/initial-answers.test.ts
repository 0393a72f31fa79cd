import { describe, expect, it } from 'vitest';
import { formatScore, initialAnswers, queryScorePercent } from './initial-answers.js';
import type { AnnotationRecord, Question } from './types.js';

const question = (id: string, type: string): Question => ({ id, name: id, title: id, description: null, required: false, settings: { type }, visible_for_annotators: true, dataset_id: 'd' });
const questions = [question('label', 'label_selection'), question('topics', 'multi_label_selection'), question('comment', 'text')];
const suggestions = [
  { id: 's1', question_id: 'label', type: 'model' as const, value: 'positive', agent: 'm', score: 0.84 },
  { id: 's2', question_id: 'topics', type: 'model' as const, value: ['news'], agent: 'm', score: [0.9] },
];
const record = (responses: AnnotationRecord['responses']): AnnotationRecord =>
  ({ id: 'r', dataset_id: 'd', fields: {}, status: 'pending', inserted_at: '', updated_at: '', suggestions, responses });

describe('initial answers (spec §4)', () => {
  it('a pending record starts from its suggestions', () => {
    expect(initialAnswers(record([]), questions)).toEqual({ label: 'positive', topics: ['news'] });
  });

  it('any other status starts from the saved answer, never from suggestions', () => {
    const draft = record([{ id: 'x', status: 'draft', values: { comment: { value: 'mine' } }, updated_at: '' }]);
    expect(initialAnswers(draft, questions)).toEqual({ comment: 'mine' });
    const discarded = record([{ id: 'x', status: 'discarded', values: null, updated_at: '' }]);
    expect(initialAnswers(discarded, questions)).toEqual({});
  });
});

describe('scores (spec §3, §9)', () => {
  it('suggestion score with 1 decimal; a list shows its highest', () => {
    expect(formatScore(0.84)).toBe('0.8');
    expect(formatScore(1)).toBe('1.0');
    expect(formatScore([0.2, 0.96])).toBe('1.0');
    expect(formatScore(null)).toBeUndefined();
  });

  it('query score as a percentage with 1 decimal, none when negative', () => {
    expect(queryScorePercent(0.98058)).toBe('98.1');
    expect(queryScorePercent(0)).toBe('0.0');
    expect(queryScorePercent(-0.2)).toBeUndefined();
    expect(queryScorePercent(null)).toBeUndefined();
  });
});
