import { describe, expect, it } from 'vitest';
import { buildCreationPlan, buildDefaultConfiguration, buildMapping, type DatasetConfiguration } from './dataset-configuration.js';
import { classifyColumns } from './hub-columns.js';
import { DEFAULT_OPTIONS, newQuestion } from './question-defaults.js';
import { previewSuggestion } from './preview.js';
import { buildPythonSnippet } from './python-snippet.js';

const value = (dtype: string) => ({ dtype, _type: 'Value' });
const SENTIMENT = {
  id: value('string'),
  text: value('string'),
  label: { names: ['negative ', 'positive', 'neutral'], _type: 'ClassLabel' },
  n_words: value('int64'),
  score: value('float32'),
};

function sentimentConfig(): DatasetConfiguration {
  return buildDefaultConfiguration({ repoId: 'scholia/sentiment', subset: 'default', split: 'train', columns: classifyColumns(SENTIMENT), workspace: { id: 'w1', name: 'ws' } });
}

describe('column classification (hub-contract §1 feature forms)', () => {
  it('recognises every column kind, current and legacy list forms', () => {
    const columns = classifyColumns({
      ...SENTIMENT,
      image: { _type: 'Image' },
      topics: { feature: { names: ['a', 'b'], _type: 'ClassLabel' }, _type: 'List' },
      legacyTopics: { feature: { names: ['a', 'b'], _type: 'ClassLabel' }, _type: 'Sequence', length: -1 },
      messages: { feature: { role: value('string'), content: value('string') }, _type: 'List' },
      legacyChat: [{ role: value('string'), content: value('string') }],
      tokens: { feature: value('string'), _type: 'LargeList' },
      flag: value('bool'),
      when: value('timestamp[s]'),
    });
    expect(Object.fromEntries(columns.map((c) => [c.name, c.kind]))).toEqual({
      id: 'text', text: 'text', label: 'classLabel', n_words: 'integer', score: 'float', image: 'image', topics: 'multiLabel',
      legacyTopics: 'multiLabel', messages: 'chat', legacyChat: 'chat', tokens: 'list', flag: 'bool', when: 'other',
    });
    expect(columns.find((c) => c.name === 'label')?.labels).toEqual(['negative', 'positive', 'neutral']);
  });
});

describe('default configuration and mapping (spec §3, §5)', () => {
  it('maps text to fields, numbers to metadata, ClassLabel to a label question suggested from it, id to external_id', () => {
    const config = sentimentConfig();
    expect(config.name).toBe('sentiment');
    expect(config.questions).toHaveLength(1);
    expect(config.questions[0]).toMatchObject({ name: 'label', type: 'label_selection', options: 'negative, positive, neutral', required: true });
    expect(buildMapping(config)).toEqual({
      fields: [{ source: 'text', target: 'text' }],
      metadata: [{ source: 'n_words', target: 'n_words' }, { source: 'score', target: 'score' }],
      suggestions: [{ source: 'label', target: 'label' }],
      external_id: 'id',
    });
  });

  it('a list of ClassLabel becomes a multi-label question; image and chat become fields', () => {
    const config = buildDefaultConfiguration({
      repoId: 'o/r', subset: 's', split: 'train', columns: classifyColumns({
        picture: { _type: 'Image' },
        messages: { feature: { role: value('string'), content: value('string') }, _type: 'List' },
        topics: { feature: { names: ['x', 'y'], _type: 'ClassLabel' }, _type: 'List' },
      }),
    });
    expect(config.questions[0]).toMatchObject({ name: 'topics', type: 'multi_label_selection', options: 'x, y' });
    const plan = buildCreationPlan(config);
    expect(plan.fields).toEqual([
      { name: 'picture', title: 'picture', required: false, settings: { type: 'image' } },
      { name: 'messages', title: 'messages', required: false, settings: { type: 'chat', use_markdown: true } },
    ]);
    expect(plan.mapping.external_id).toBeNull();
    expect(plan.questions[0].settings).toEqual({
      type: 'multi_label_selection', options: [{ value: 'x', text: 'x', description: null }, { value: 'y', text: 'y', description: null }],
      visible_options: null, options_order: 'natural',
    });
  });

  it('excludes "no mapping" columns and a column named id even when mapped as a field', () => {
    const config = sentimentConfig();
    config.columns = config.columns.map((c) => (c.column.name === 'id' ? { ...c, role: { kind: 'field', type: 'text' } } : c.column.name === 'score' ? { ...c, role: { kind: 'field', type: 'no mapping' } } : c));
    const mapping = buildMapping(config);
    expect(mapping.fields.map((f) => f.source)).toEqual(['text']);
    expect(mapping.metadata.map((f) => f.source)).toEqual(['n_words']);
  });

  it('builds the creation plan: trimmed titles, metadata types, null description, visible_options only above 3', () => {
    const config = sentimentConfig();
    config.questions[0] = { ...config.questions[0], title: '  Sentiment  ', description: '   ', options: 'a, b, c, d' };
    const plan = buildCreationPlan(config);
    expect(plan.metadataProperties).toEqual([
      { name: 'n_words', title: 'n_words', settings: { type: 'integer', min: null, max: null } },
      { name: 'score', title: 'score', settings: { type: 'float', min: null, max: null } },
    ]);
    expect(plan.questions[0]).toMatchObject({ name: 'label', title: 'Sentiment', description: null, required: true });
    expect(plan.questions[0].settings).toMatchObject({ type: 'label_selection', visible_options: 4 });
    expect(plan.workspace).toEqual({ id: 'w1', name: 'ws' });
  });
});

describe('question defaults (spec §9)', () => {
  it('uses the default options per type and required by default', () => {
    expect(newQuestion('label_selection', { existingNames: [], textFields: [] })).toMatchObject({ options: 'positive, negative, neutral', required: true });
    expect(newQuestion('multi_label_selection', { existingNames: [], textFields: [] }).options).toBe('news, sports, international, politics');
    expect(newQuestion('ranking', { existingNames: [], textFields: [] }).options).toBe('Option 1, Option 2');
    expect(newQuestion('rating', { existingNames: [], textFields: [] }).options).toBe(DEFAULT_OPTIONS.rating.join(', '));
    expect(DEFAULT_OPTIONS.rating).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    expect(newQuestion('span', { existingNames: [], textFields: ['text', 'other'] })).toMatchObject({
      options: 'organisation, person, event', allowOverlapping: true, field: 'text',
    });
  });

  it('never reuses a name', () => {
    expect(newQuestion('label_selection', { existingNames: ['label', 'label_1'], textFields: [] }).name).toBe('label_2');
  });

  it('span and rating payloads', () => {
    const config = sentimentConfig();
    config.questions = [
      newQuestion('span', { existingNames: [], textFields: ['text'] }),
      newQuestion('rating', { existingNames: [], textFields: [] }),
    ];
    const [span, rating] = buildCreationPlan(config).questions;
    expect(span.settings).toMatchObject({ type: 'span', field: 'text', allow_overlapping: true, visible_options: null });
    expect(rating.settings).toEqual({ type: 'rating', options: DEFAULT_OPTIONS.rating.map((v) => ({ value: Number(v) })) });
  });
});

describe('preview suggestions (spec §9)', () => {
  it('takes the first row value of the suggestion column, ClassLabel index as its name', () => {
    const config = sentimentConfig();
    expect(previewSuggestion(config, config.questions[0], { label: 1 })).toEqual({ value: 'positive' });
  });

  it('fakes a multi-label suggestion with more than 3 options: first 2 options, scores 0.5 and 0.7', () => {
    const config = sentimentConfig();
    const question = newQuestion('multi_label_selection', { existingNames: [], textFields: [] });
    expect(previewSuggestion(config, question, {})).toEqual({ value: ['news', 'sports'], score: [0.5, 0.7] });
  });
});

describe('python snippet', () => {
  it('logs the next rows with the same mapping', () => {
    const snippet = buildPythonSnippet(sentimentConfig(), { apiUrl: 'http://x', workspaceName: 'ws' });
    expect(snippet).toContain('client = rg.Argilla(api_url="http://x"');
    expect(snippet).toContain('dataset = client.datasets(name="sentiment", workspace="ws")');
    expect(snippet).toContain('load_dataset("scholia/sentiment", split="train")');
    expect(snippet).toContain('"label": "label.suggestion",');
    expect(snippet).toContain('"id": "id",');
  });
});
