import { describe, expect, it } from 'vitest';
import { buildDefaultConfiguration, type DatasetConfiguration } from './dataset-configuration.js';
import { classifyColumns } from './hub-columns.js';
import { newQuestion, type QuestionConfig } from './question-defaults.js';
import { isConfigurationValid, validateConfiguration, validateQuestion } from './validation.js';

const value = (dtype: string) => ({ dtype, _type: 'Value' });
const base = (): DatasetConfiguration => buildDefaultConfiguration({
  repoId: 'o/r', subset: 'default', split: 'train', workspace: { id: 'w', name: 'w' },
  columns: classifyColumns({ text: value('string'), label: { names: ['a', 'b'], _type: 'ClassLabel' } }),
});
const question = (patch: Partial<QuestionConfig> = {}): QuestionConfig => ({ ...newQuestion('label_selection', { existingNames: [], textFields: [] }), ...patch });
const check = (q: QuestionConfig, textFields = ['text']) => validateQuestion(q, { textFields, otherNames: [] });

describe('question validation (spec §5)', () => {
  it('title required and at most 200; description at most 500', () => {
    expect(check(question({ title: '  ' })).title).toBe('required');
    expect(check(question({ title: 'x'.repeat(201) })).title).toBe('max200');
    expect(check(question({ title: 'x'.repeat(200) })).title).toBeUndefined();
    expect(check(question({ description: 'x'.repeat(501) })).description).toBe('max500');
  });

  it('label, multi-label, span, ranking and rating need at least 2 non-empty, unique options', () => {
    for (const type of ['label_selection', 'multi_label_selection', 'span', 'ranking', 'rating'] as const) {
      expect(check(question({ type, options: 'only', field: 'text' })).options, type).toBe('atLeastTwoOptions');
    }
    expect(check(question({ options: 'a,,b' })).options).toBe('emptyOption');
    expect(check(question({ options: 'a, b, a' })).options).toBe('duplicateOptions');
    expect(check(question({ type: 'rating', options: '1, 11' })).options).toBe('ratingOptions');
    expect(check(question({ type: 'text', options: '' })).options).toBeUndefined();
  });

  it('span needs one of the text fields', () => {
    expect(check(question({ type: 'span', field: undefined })).field).toBe('oneTextFieldRequired');
    expect(check(question({ type: 'span', field: 'image' })).field).toBe('oneTextFieldRequired');
    expect(check(question({ type: 'span', field: 'text' })).field).toBeUndefined();
  });
});

describe('configuration validation (spec §5 hub dataset creation)', () => {
  it('the default configuration of a labelled dataset is valid', () => {
    const errors = validateConfiguration(base());
    expect(errors.general).toEqual([]);
    expect(isConfigurationValid(errors)).toBe(true);
  });

  it('atLeastOneQuestion', () => {
    const config = { ...base(), questions: [] };
    expect(validateConfiguration(config).general).toEqual(['atLeastOneQuestion']);
  });

  it('atLeastOneRequired', () => {
    const config = base();
    config.questions = config.questions.map((q) => ({ ...q, required: false }));
    expect(validateConfiguration(config).general).toEqual(['atLeastOneRequired']);
  });

  it('hasInvalidQuestions', () => {
    const config = base();
    config.questions = [...config.questions, question({ key: 'bad', name: 'other', title: '' })];
    const errors = validateConfiguration(config);
    expect(errors.general).toEqual(['hasInvalidQuestions']);
    expect(errors.questions.bad).toEqual({ title: 'required' });
    expect(isConfigurationValid(errors)).toBe(false);
  });

  it('duplicate question names, no field, field title over 500, missing dataset name or workspace', () => {
    const config = base();
    config.questions = [...config.questions, question({ key: 'dup', name: config.questions[0].name })];
    expect(validateConfiguration(config).questions.dup).toEqual({ name: 'duplicateName' });

    const noField = base();
    noField.columns = noField.columns.map((c) => (c.column.name === 'text' ? { ...c, role: { kind: 'field', type: 'no mapping' } } : c));
    expect(validateConfiguration(noField).general).toContain('atLeastOneField');

    const longTitle = base();
    longTitle.columns = longTitle.columns.map((c) => (c.column.name === 'text' ? { ...c, title: 'x'.repeat(501) } : c));
    expect(validateConfiguration(longTitle).columns).toEqual({ text: 'max500' });

    expect(validateConfiguration({ ...base(), name: ' ' }).name).toBe('required');
    expect(validateConfiguration({ ...base(), workspace: { name: '' } }).workspace).toBe('workspaceRequired');
  });
});
