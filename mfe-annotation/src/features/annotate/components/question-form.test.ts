import { describe, expect, it } from 'vitest';
import type { Question } from '../model/types.js';
import { describeSuggestion } from './question-form.js';

const question = (type: string, options: { value: string | number; text: string }[]): Question =>
  ({ id: type, name: type, title: type, description: null, required: false, visible_for_annotators: true, dataset_id: 'd', settings: { type, options } });

describe('suggestion line', () => {
  it('names options by their titles, a ranking in rank order', () => {
    const ranking = question('ranking', [{ value: 'reply-1', text: 'First reply' }, { value: 'reply-2', text: 'Second reply' }]);
    expect(describeSuggestion(ranking, [{ value: 'reply-2', rank: null }, { value: 'reply-1', rank: null }])).toBe('1. Second reply, 2. First reply');
    expect(describeSuggestion(ranking, [{ value: 'reply-1', rank: 2 }, { value: 'reply-2', rank: 1 }])).toBe('1. Second reply, 2. First reply');
    const labels = question('multi_label_selection', [{ value: 'pos', text: 'Positive' }, { value: 'neg', text: 'Negative' }]);
    expect(describeSuggestion(labels, ['neg', 'pos'])).toBe('Negative, Positive');
    expect(describeSuggestion(question('label_selection', [{ value: 'pos', text: 'Positive' }]), 'pos')).toBe('Positive');
    const spans = question('span', [{ value: 'PER', text: 'Person' }]);
    expect(describeSuggestion(spans, [{ start: 0, end: 3, label: 'PER' }, { start: 4, end: 6, label: 'PER' }])).toBe('Person');
    expect(describeSuggestion(question('text', []), 'free text')).toBe('free text');
  });
});
