import { describe, expect, it } from 'vitest';
import { answerState, canSubmit, toResponseValues } from './answer-validity.js';
import type { Question } from './types.js';

const q = (name: string, settings: Record<string, unknown>, required = true): Question =>
  ({ id: name, name, title: name, description: null, required, settings: settings as Question['settings'], visible_for_annotators: true, dataset_id: 'd' });
const opts = (...values: string[]) => values.map((value) => ({ value, text: value, description: null }));

const text = q('text', { type: 'text', use_markdown: false });
const label = q('label', { type: 'label_selection', options: opts('a', 'b'), visible_options: null });
const multi = q('multi', { type: 'multi_label_selection', options: opts('a', 'b'), visible_options: null, options_order: 'natural' });
const rating = q('rating', { type: 'rating', options: [{ value: 1 }, { value: 2 }] });
const ranking = q('ranking', { type: 'ranking', options: opts('x', 'y', 'z') });
const span = q('span', { type: 'span', field: 'f', options: opts('p'), visible_options: null, allow_overlapping: false, allow_character_annotation: true });

describe('answer validity (spec §4)', () => {
  it('text is valid when not empty', () => {
    expect(answerState(text, 'hi').valid).toBe(true);
    expect(answerState(text, '   ').valid).toBe(false);
    expect(answerState(text, undefined).valid).toBe(false);
  });
  it('single label, multi label and rating are valid when something is selected', () => {
    expect(answerState(label, 'a').valid).toBe(true);
    expect(answerState(label, undefined).valid).toBe(false);
    expect(answerState(multi, ['a']).valid).toBe(true);
    expect(answerState(multi, []).valid).toBe(false);
    expect(answerState(rating, 2).valid).toBe(true);
    expect(answerState(rating, undefined).valid).toBe(false);
  });
  it('span is always valid', () => {
    expect(answerState(span, undefined).valid).toBe(true);
    expect(answerState(span, []).valid).toBe(true);
  });
  it('ranking: valid when all ranked, partially when some, valid values when none or all', () => {
    const all = [{ value: 'x', rank: 1 }, { value: 'y', rank: 2 }, { value: 'z', rank: 3 }];
    const some = [{ value: 'x', rank: 1 }, { value: 'y', rank: null }, { value: 'z', rank: null }];
    expect(answerState(ranking, all)).toEqual({ valid: true, partiallyValid: false, hasValidValues: true });
    expect(answerState(ranking, some)).toEqual({ valid: false, partiallyValid: true, hasValidValues: false });
    expect(answerState(ranking, undefined)).toEqual({ valid: false, partiallyValid: false, hasValidValues: true });
  });
  it('an unknown type raises the spec message', () => {
    expect(() => answerState(q('x', { type: 'video' }), 'v')).toThrow('Question answer for type video is not implemented yet.');
  });
});

describe('record completion (spec §5)', () => {
  it('needs every required question answered', () => {
    expect(canSubmit([text, label], { text: 'a' })).toBe(false);
    expect(canSubmit([text, label], { text: 'a', label: 'b' })).toBe(true);
  });
  it('a required span question needs a span; an optional one none', () => {
    const requiredSpan = { ...span, required: true };
    expect(canSubmit([requiredSpan], {})).toBe(false);
    expect(canSubmit([requiredSpan], { span: [] })).toBe(false);
    expect(canSubmit([requiredSpan], { span: [{ start: 0, end: 1, label: 'p' }] })).toBe(true);
    expect(canSubmit([{ ...span, required: false }], {})).toBe(true);
  });
  it('needs valid values on non-required questions', () => {
    const optionalRanking = { ...ranking, required: false };
    expect(canSubmit([text, optionalRanking], { text: 'a' })).toBe(true);
    expect(canSubmit([text, optionalRanking], { text: 'a', ranking: [{ value: 'x', rank: 1 }, { value: 'y', rank: null }, { value: 'z', rank: null }] })).toBe(false);
  });
  it('sends only valid or partially valid answers', () => {
    const values = toResponseValues([text, label, ranking, span], { text: '', label: 'a', ranking: [{ value: 'x', rank: 1 }, { value: 'y', rank: null }, { value: 'z', rank: null }], span: [] });
    expect(Object.keys(values).sort()).toEqual(['label', 'ranking', 'span']);
  });
});
