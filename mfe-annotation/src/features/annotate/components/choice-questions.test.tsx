import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RemoteProviders } from '@scholia/shared/ui';
import { registerAnnotationI18n } from '../../../i18n/register-annotation-i18n.js';
import type { Question, RecordSuggestion } from '../model/types.js';
import { LabelQuestion, RatingQuestion } from './choice-questions.js';

const multi = (values: string[], extra: Record<string, unknown> = {}): Question => ({
  id: 'q', name: 'topics', title: 'Topics', description: null, required: false, visible_for_annotators: true, dataset_id: 'd',
  settings: { type: 'multi_label_selection', options: values.map((value) => ({ value, text: value.toUpperCase() })), ...extra },
});
const shown = () => [...document.querySelectorAll('button[aria-pressed] bdi')].map((b) => b.textContent);

describe('label questions (spec §3, §9)', () => {
  beforeAll(registerAnnotationI18n);
  afterEach(cleanup);

  it('shows the visible-options control only with more than 3 options', () => {
    render(<RemoteProviders><LabelQuestion question={multi(['a', 'b', 'c'], { visible_options: 2 })} value={undefined} suggestion={undefined} onChange={() => {}} /></RemoteProviders>);
    expect(shown()).toEqual(['A', 'B', 'C']);
    expect(screen.queryByRole('button', { name: /Show/ })).toBeNull();
    cleanup();

    render(<RemoteProviders><LabelQuestion question={multi(['a', 'b', 'c', 'd', 'e'], { visible_options: 3 })} value={['e']} suggestion={undefined} onChange={() => {}} /></RemoteProviders>);
    // A chosen option stays visible even past the limit.
    expect(shown()).toEqual(['A', 'B', 'C', 'E']);
    fireEvent.click(screen.getByRole('button', { name: 'Show 1 more' }));
    expect(shown()).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('orders options naturally, or by suggestion score when asked', () => {
    const suggestion: RecordSuggestion = { id: 's', question_id: 'q', type: 'model', value: ['c', 'b'], agent: 'm', score: [0.4, 0.9] };
    render(<RemoteProviders><LabelQuestion question={multi(['a', 'b', 'c', 'd'])} value={undefined} suggestion={suggestion} onChange={() => {}} /></RemoteProviders>);
    expect(shown()).toEqual(['A', 'B', 'C', 'D']);
    cleanup();
    render(<RemoteProviders><LabelQuestion question={multi(['a', 'b', 'c', 'd'], { options_order: 'suggestion' })} value={undefined} suggestion={suggestion} onChange={() => {}} /></RemoteProviders>);
    expect(shown()).toEqual(['B', 'C', 'A', 'D']);
  });

  it('digit keys toggle the n-th option', () => {
    const onChange = vi.fn();
    render(<RemoteProviders><LabelQuestion question={multi(['a', 'b'])} value={['a']} suggestion={undefined} onChange={onChange} /></RemoteProviders>);
    fireEvent.keyDown(screen.getByTestId('question-input-topics'), { key: '2' });
    expect(onChange).toHaveBeenCalledWith(['a', 'b']);
    fireEvent.keyDown(screen.getByTestId('question-input-topics'), { key: '1' });
    expect(onChange).toHaveBeenLastCalledWith(undefined);
  });

  it('a digit replaces a preselected suggestion, even when it names a suggested option', () => {
    const onChange = vi.fn();
    const suggestion: RecordSuggestion = { id: 's', question_id: 'q', type: 'model', value: ['a', 'c'], agent: 'm', score: null };
    render(<RemoteProviders><LabelQuestion question={multi(['a', 'b', 'c'])} value={['a', 'c']} suggestion={suggestion} preselected onChange={onChange} /></RemoteProviders>);
    fireEvent.keyDown(screen.getByTestId('question-input-topics'), { key: '2' });
    expect(onChange).toHaveBeenLastCalledWith(['b']);
    fireEvent.keyDown(screen.getByTestId('question-input-topics'), { key: '1' });
    expect(onChange).toHaveBeenLastCalledWith(['a']);
    cleanup();
    const single: Question = { ...multi(['pos', 'neg']), settings: { type: 'label_selection', options: [{ value: 'pos', text: 'POS' }, { value: 'neg', text: 'NEG' }] } };
    render(<RemoteProviders><LabelQuestion question={single} value="pos" suggestion={{ ...suggestion, value: 'pos' }} preselected onChange={onChange} /></RemoteProviders>);
    fireEvent.keyDown(screen.getByTestId('question-input-topics'), { key: '1' });
    expect(onChange).toHaveBeenLastCalledWith('pos');
  });

  it('digits reach options past the visible limit; the options are no Tab stops of their own', () => {
    const onChange = vi.fn();
    render(<RemoteProviders><LabelQuestion question={multi(['a', 'b', 'c', 'd', 'e'], { visible_options: 3 })} value={undefined} suggestion={undefined} onChange={onChange} /></RemoteProviders>);
    const group = screen.getByTestId('question-input-topics');
    fireEvent.keyDown(group, { key: '5' });
    expect(onChange).toHaveBeenLastCalledWith(['e']);
    expect(group.tabIndex).toBe(0);
    expect([...group.querySelectorAll('button[aria-pressed]')].every((b) => (b as HTMLElement).tabIndex === -1)).toBe(true);
  });
});

describe('rating questions', () => {
  beforeAll(registerAnnotationI18n);
  afterEach(cleanup);
  const rating = (values: number[]): Question => ({
    id: 'r', name: 'stars', title: 'Stars', description: null, required: false, visible_for_annotators: true, dataset_id: 'd',
    settings: { type: 'rating', options: values.map((value) => ({ value })) },
  });
  const hints = () => [...document.querySelectorAll('button[aria-pressed] kbd')].map((k) => k.textContent);

  it('a digit key picks the rating of that value, not the option at that position', () => {
    const onChange = vi.fn();
    render(<RemoteProviders><RatingQuestion question={rating([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])} value={undefined} suggestion={undefined} onChange={onChange} /></RemoteProviders>);
    const group = screen.getByTestId('question-input-stars');
    fireEvent.keyDown(group, { key: '1' });
    expect(onChange).toHaveBeenLastCalledWith(1);
    fireEvent.keyDown(group, { key: '0' });
    expect(onChange).toHaveBeenLastCalledWith(0);
    fireEvent.keyDown(group, { key: '9' });
    expect(onChange).toHaveBeenLastCalledWith(9);
    // The hints name the key of each value; 10 has none.
    expect(hints()).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
  });

  it('a digit with no such rating does nothing; the chosen rating\'s digit clears it', () => {
    const onChange = vi.fn();
    render(<RemoteProviders><RatingQuestion question={rating([1, 2, 3, 4, 5])} value={3} suggestion={undefined} onChange={onChange} /></RemoteProviders>);
    const group = screen.getByTestId('question-input-stars');
    fireEvent.keyDown(group, { key: '7' });
    fireEvent.keyDown(group, { key: '0' });
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.keyDown(group, { key: '3' });
    expect(onChange).toHaveBeenLastCalledWith(undefined);
  });

  it('a preselected rating\'s digit keeps it', () => {
    const onChange = vi.fn();
    render(<RemoteProviders><RatingQuestion question={rating([1, 2, 3])} value={3} suggestion={undefined} preselected onChange={onChange} /></RemoteProviders>);
    fireEvent.keyDown(screen.getByTestId('question-input-stars'), { key: '3' });
    expect(onChange).toHaveBeenLastCalledWith(3);
  });
});
