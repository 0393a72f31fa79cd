import { describe, expect, it } from 'vitest';
import {
  hasIssues, validateFieldTitle, validateGuidelines, validateHubExport, validateMinSubmitted, validateOptionTexts,
  validateQuestionTexts, validateTitle500, validateVisibleOptions,
} from './validation.js';

const keyOf = (issues: ReturnType<typeof validateGuidelines>, name: string) => issues[name]?.key;

describe('validation rules of spec §5', () => {
  it('guidelines must not be empty after trimming', () => {
    expect(keyOf(validateGuidelines('   \n'), 'guidelines')).toBe('validation.required');
    expect(hasIssues(validateGuidelines(' ok '))).toBe(false);
  });

  it('minSubmitted must be present and a whole number of at least 1', () => {
    for (const bad of ['', '0', '-2', '1.5', 'abc']) expect(keyOf(validateMinSubmitted(bad), 'minSubmitted')).toBe('validation.required');
    expect(hasIssues(validateMinSubmitted('3'))).toBe(false);
  });

  it('question title is required and at most 200, description at most 500 (code points)', () => {
    expect(keyOf(validateQuestionTexts(' ', ''), 'title')).toBe('validation.required');
    expect(keyOf(validateQuestionTexts('x'.repeat(201), ''), 'title')).toBe('validation.max200');
    expect(hasIssues(validateQuestionTexts('x'.repeat(200), 'y'.repeat(500)))).toBe(false);
    expect(hasIssues(validateQuestionTexts('😀'.repeat(200), ''))).toBe(false); // 400 UTF-16 units, 200 code points
    expect(keyOf(validateQuestionTexts('ok', 'y'.repeat(501)), 'description')).toBe('validation.max500');
  });

  it('options keep a text, visible options stay within 3..count when shown', () => {
    expect(validateOptionTexts([{ value: 'a', text: ' ' }])['option:a']?.key).toBe('validation.required');
    expect(validateVisibleOptions('2', 5).visibleOptions).toEqual({ key: 'validation.visibleOptions', params: { max: 5 } });
    expect(validateVisibleOptions('6', 5).visibleOptions?.key).toBe('validation.visibleOptions');
    expect(hasIssues(validateVisibleOptions('4', 5))).toBe(false);
    expect(hasIssues(validateVisibleOptions('', 3))).toBe(false); // not shown with 3 options or fewer
  });

  it('field title at most 500, empty allowed (falls back to the name); metadata and vector titles 1..500', () => {
    expect(keyOf(validateFieldTitle('x'.repeat(501)), 'title')).toBe('validation.max500');
    expect(hasIssues(validateFieldTitle(''))).toBe(false);
    expect(keyOf(validateTitle500('x'.repeat(501)), 'title')).toBe('validation.max500');
    expect(keyOf(validateTitle500(''), 'title')).toBe('validation.required');
  });

  it('hub export: owner, name and token required; a token must look like a hub token', () => {
    const empty = validateHubExport({ owner: '', name: ' ', token: '' });
    expect([empty.owner?.key, empty.name?.key, empty.token?.key])
      .toEqual(['validation.ownerRequired', 'validation.nameRequired', 'validation.tokenRequired']);
    expect(validateHubExport({ owner: 'me', name: 'ds', token: 'not a token' }).token?.key).toBe('validation.invalidToken');
    expect(hasIssues(validateHubExport({ owner: 'me', name: 'ds', token: 'hf_abc123' }))).toBe(false);
  });
});
