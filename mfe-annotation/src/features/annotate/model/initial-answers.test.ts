import { describe, expect, it } from 'vitest';
import { formatScore, initialAnswers, queryScorePercent, toRanking } from './initial-answers.js';
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

describe('suggested ranking', () => {
  const ranking: Question = { ...question('preference', 'ranking'), settings: { type: 'ranking', options: [{ value: 'a', text: 'Reply A' }, { value: 'b', text: 'Reply B' }] } };

  it('pre-fills a pending record with the suggested order, as the SDK sends it (values in order, no ranks)', () => {
    const sdkSuggestion = { id: 's3', question_id: 'preference', type: 'model' as const, value: [{ value: 'b', rank: null }, { value: 'a', rank: null }], agent: null, score: null };
    const pending = { ...record([]), suggestions: [sdkSuggestion] };
    expect(initialAnswers(pending, [ranking])).toEqual({ preference: [{ value: 'b', rank: 1 }, { value: 'a', rank: 2 }] });
  });

  it('keeps ranks given explicitly and reads plain strings by position', () => {
    expect(toRanking([{ value: 'a', rank: 2 }, { value: 'b', rank: 1 }])).toEqual([{ value: 'a', rank: 2 }, { value: 'b', rank: 1 }]);
    expect(toRanking([{ value: 'a', rank: null }, { value: 'b', rank: 1 }])).toEqual([{ value: 'a', rank: null }, { value: 'b', rank: 1 }]);
    expect(toRanking(['b', 'a'])).toEqual([{ value: 'b', rank: 1 }, { value: 'a', rank: 2 }]);
    expect(toRanking('b')).toEqual([]);
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
    expect(queryScorePercent(0.98058)).toBe('98.1%');
    expect(queryScorePercent(0)).toBe('0.0%');
    expect(queryScorePercent(-0.2)).toBeUndefined();
    expect(queryScorePercent(null)).toBeUndefined();
  });
});
